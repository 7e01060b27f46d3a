import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import yaml from 'js-yaml';
import { Operator } from '../../operator/operator.ts';
import { operatorSettings } from '../../operator/settings.ts';
import { backends, logger, startApp } from '../api/helpers.ts';
import { parseExposition } from './exposition.ts';
import { seriesNames } from './promql.ts';

const FILES = new URL('../../charts/framewright/files/', import.meta.url);

function dashboardExprs(): string[] {
  const dashboard = JSON.parse(readFileSync(new URL('grafana-dashboard.json', FILES), 'utf8')) as {
    panels: { type: string; title: string; targets?: { expr: string }[] }[];
  };
  const exprs = dashboard.panels.flatMap((p) => (p.type === 'row' ? [] : (p.targets ?? []).map((t) => t.expr)));
  assert.ok(exprs.length >= 20, 'the dashboard has its panels');
  return exprs;
}

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function rules(): Rule[] {
  const doc = yaml.load(readFileSync(new URL('prometheus-rules.yaml', FILES), 'utf8')) as {
    groups: { name: string; rules: Rule[] }[];
  };
  assert.deepEqual(Object.keys(doc), ['groups'], 'the body of a PrometheusRule spec');
  return doc.groups.flatMap((g) => g.rules);
}

test('seriesNames finds series, not functions, labels, strings or durations', () => {
  assert.deepEqual(
    seriesNames(
      'histogram_quantile(0.95, sum by (le, route) (rate(a_seconds_bucket{route!="x y",ns=~"$ns"}[$__rate_interval]))) / on (pod) group_left b_total > 1e-9 or absent(c_info) and d offset 5m',
    ),
    ['a_seconds_bucket', 'b_total', 'c_info', 'd'],
  );
  assert.deepEqual(seriesNames('sum(x) == 0'), ['x']);
});

test('every series the dashboard and the alerts name exists in the API or the operator exposition', async (t) => {
  const backend = backends()[0];
  assert.ok(backend);
  const db = await backend.open();
  t.after(() => db.close());
  const app = await startApp(db);
  t.after(() => app.close());
  // The operator as the process builds it (never started: its registry is complete at construction).
  const operator = new Operator({
    kc: { getCurrentCluster: () => ({ server: 'https://127.0.0.1:1' }), applyToHTTPSOptions: async () => {} },
    db,
    settings: operatorSettings({ KUBE_NAMESPACE: 'framewright' }),
    publicBaseUrl: 'http://api.test',
    logger,
  });
  const exposed = new Set<string>();
  for (const text of [await app.metrics.registry.metrics(), await operator.registry.metrics()]) {
    // A family is declared (HELP, TYPE) before its first sample: a histogram by its three series.
    for (const [name, type] of parseExposition(text).types) {
      if (type === 'HISTOGRAM') for (const s of ['_bucket', '_sum', '_count']) exposed.add(name + s);
      else exposed.add(name);
    }
  }
  assert.ok(exposed.has('controller_runtime_reconcile_total') && exposed.has('framewright_renders'));

  const named = new Map<string, string>();
  for (const expr of dashboardExprs()) for (const n of seriesNames(expr)) named.set(n, `dashboard: ${expr}`);
  for (const rule of rules()) for (const n of seriesNames(rule.expr)) named.set(n, `alert ${rule.alert}`);
  assert.ok(named.size >= 20, `found ${named.size} series names`);
  const missing = [...named].filter(([n]) => !exposed.has(n)).map(([n, where]) => `${n} (${where})`);
  assert.deepEqual(missing, [], 'series named that nothing exposes');
});

test('each alert has a severity, a summary, a description and a runbook hint', () => {
  const all = rules();
  assert.deepEqual(all.map((r) => r.alert).sort(), [
    'FramewrightOperatorNoLeader',
    'FramewrightOperatorReconcileErrors',
    'FramewrightQueueWaitHigh',
    'FramewrightRenderFailureRatioHigh',
    'FramewrightWebhookBacklogGrowing',
  ]);
  for (const r of all) {
    assert.match(r.labels?.severity ?? '', /^(warning|critical)$/, r.alert);
    for (const a of ['summary', 'description', 'runbook']) assert.ok(r.annotations?.[a], `${r.alert}: ${a}`);
    assert.match(r.for ?? '', /^\d+m$/, `${r.alert}: for`);
  }
});
