import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { WebhookDispatcher } from '../../api/execution/webhook-dispatcher.ts';
import { errorBody } from '../../lib/errors.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import { movie } from '../api/docs.ts';
import { client, eachBackend, newAccount, startApp, testConfig } from '../api/helpers.ts';
import { startFakeOpenAI } from '../fakes/openai-server.ts';
import { makeDraft } from '../fakes/script-drafts.ts';
import { type Exposition, parseExposition } from './exposition.ts';

/** A clock the test moves: queue wait and render duration come out exact. */
class Clock {
  t = Date.parse('2026-03-01T12:00:00.000Z');
  now = () => new Date(this.t);
  advance(sec: number): void {
    this.t += sec * 1000;
  }
}

test('the API exposition: a render moves the right series, gauges read the database', async (t) => {
  await eachBackend(t, async (t, db) => {
    const clock = new Clock();
    const app = await startApp(db, { config: testConfig({ allowPrivateUrls: true }), now: clock.now });
    t.after(() => app.close());
    const scrape = async (): Promise<Exposition> => parseExposition(await app.metrics.registry.metrics());
    const acc = await newAccount(db, { plan: 'pro', credits: 1000 });
    const api = client(app, acc.key);
    const deps = { db, now: clock.now, observer: app.metrics.render };
    const lease = { owner: 'metrics-test', leaseMs: 60_000 };

    await t.test('before any render: build info, process metrics, every state at 0', async () => {
      const m = await scrape();
      const info = m.find('framewright_build_info');
      assert.equal(info.length, 1);
      assert.equal(info[0]?.value, 1);
      assert.match(info[0]?.labels.version ?? '', /^\d+\.\d+\.\d+/);
      assert.equal(info[0]?.labels.node_version, process.version);
      assert.ok(m.names().has('process_cpu_user_seconds_total'), 'the default Node.js process metrics');
      assert.ok(m.names().has('nodejs_eventloop_lag_seconds'));
      for (const state of ['queued', 'preparing', 'rendering', 'done', 'failed']) {
        assert.equal(m.find('framewright_renders', { state }).length, 1, `state ${state} is reported`);
        assert.equal(m.value('framewright_renders', { state }), 0);
      }
      assert.equal(m.types.get('framewright_renders'), 'GAUGE');
      assert.equal(m.types.get('framewright_render_duration_seconds'), 'HISTOGRAM');
      assert.equal(m.value('framewright_webhook_outbox_backlog'), 0);
    });

    let receiver: { url: string; close(): void } | undefined;
    await t.test('a render created, claimed 5 s later, completed 12 s after: every series moves once', async () => {
      const hooks: string[] = [];
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          hooks.push(req.url ?? '');
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      receiver = {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        close: () => server.close(),
      };
      t.after(() => receiver?.close());

      const created = await api('POST', '/v1/renders', { movie: movie(10), webhook_url: receiver.url });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json<{ id: string }>().id;
      let m = await scrape();
      assert.equal(m.value('framewright_renders_created_total'), 1);
      assert.equal(m.value('framewright_renders', { state: 'queued' }), 1);

      clock.advance(5);
      const claimed = await lifecycle.claimNext(deps, lease, 3);
      assert.equal(claimed?.id, id);
      m = await scrape();
      assert.equal(m.value('framewright_render_queue_wait_seconds_count'), 1);
      assert.equal(m.value('framewright_render_queue_wait_seconds_sum'), 5);
      assert.equal(m.value('framewright_render_queue_wait_seconds_bucket', { le: '2.5' }), 0);
      assert.equal(m.value('framewright_render_queue_wait_seconds_bucket', { le: '5' }), 1);
      assert.equal(m.value('framewright_renders', { state: 'queued' }), 0);
      assert.equal(m.value('framewright_renders', { state: 'preparing' }), 1);

      clock.advance(4);
      await lifecycle.reportProgress(deps, id, lease, { phase: 'rendering', progress: 50, durationSec: 10 });
      m = await scrape();
      assert.equal(m.value('framewright_render_queue_wait_seconds_count'), 1, 'a progress report is no claim');
      assert.equal(m.value('framewright_renders', { state: 'rendering' }), 1);

      clock.advance(8);
      assert.ok(await lifecycle.complete(deps, id, lease, { durationSec: 10, outputKey: `renders/${id}.mp4` }));
      // A second report of the same outcome changes nothing, and counts nothing.
      assert.equal(await lifecycle.complete(deps, id, null, { durationSec: 10, outputKey: 'x' }), false);
      const [row] = await db.sql<{ chargedCredits: number }[]>`SELECT charged_credits FROM renders WHERE id = ${id}`;
      assert.ok((row?.chargedCredits ?? 0) > 0, 'a live render of 10 s is charged');
      m = await scrape();
      assert.equal(m.value('framewright_renders_completed_total'), 1);
      assert.equal(m.value('framewright_credits_charged_total', { reason: 'render' }), row?.chargedCredits);
      assert.equal(m.value('framewright_render_duration_seconds_count', { outcome: 'done' }), 1);
      assert.equal(m.value('framewright_render_duration_seconds_sum', { outcome: 'done' }), 12, 'claim to outcome');
      assert.equal(m.value('framewright_render_duration_seconds_bucket', { outcome: 'done', le: '10' }), 0);
      assert.equal(m.value('framewright_render_duration_seconds_bucket', { outcome: 'done', le: '30' }), 1);
      assert.equal(m.value('framewright_renders', { state: 'rendering' }), 0);
      assert.equal(m.value('framewright_renders', { state: 'done' }), 1);
      assert.equal(m.value('framewright_webhook_outbox_backlog'), 1, 'render.completed is owed');

      const dispatcher = new WebhookDispatcher({
        db,
        links: app.links,
        logger: app.log as never,
        allowPrivate: true,
        now: clock.now,
        onAttempt: (outcome) => app.metrics.webhookDeliveries.inc({ outcome }),
      });
      assert.equal(await dispatcher.deliverDue(), 1);
      assert.deepEqual(hooks, ['/hook']);
      m = await scrape();
      assert.equal(m.value('framewright_webhook_deliveries_total', { outcome: 'delivered' }), 1);
      assert.equal(m.value('framewright_webhook_outbox_backlog'), 0);
    });

    await t.test('a failure counts by code; one that never ran has no duration', async () => {
      const a = (await api('POST', '/v1/renders', { movie: movie(3) })).json<{ id: string }>().id;
      const b = (await api('POST', '/v1/renders', { movie: movie(3) })).json<{ id: string }>().id;
      clock.advance(1);
      assert.equal((await lifecycle.claimNext(deps, lease, 3))?.id, a);
      clock.advance(2);
      const failure = errorBody('http://api.test', 'ASSET_UNREACHABLE', 'The image could not be fetched.');
      assert.ok(await lifecycle.fail(deps, a, lease, failure));
      // Cancelled while still queued: failed, never claimed.
      assert.ok(await lifecycle.fail(deps, b, null, errorBody('http://api.test', 'RENDER_CANCELLED', 'cancelled')));
      const m = await scrape();
      assert.equal(m.value('framewright_renders_created_total'), 3);
      assert.equal(m.value('framewright_renders_failed_total', { code: 'ASSET_UNREACHABLE' }), 1);
      assert.equal(m.value('framewright_renders_failed_total', { code: 'RENDER_CANCELLED' }), 1);
      assert.equal(m.value('framewright_render_duration_seconds_count', { outcome: 'failed' }), 1);
      assert.equal(m.value('framewright_render_duration_seconds_sum', { outcome: 'failed' }), 2);
      assert.equal(m.value('framewright_render_queue_wait_seconds_count'), 2);
      assert.equal(m.value('framewright_renders', { state: 'failed' }), 2);
      assert.equal(m.value('framewright_renders', { state: 'done' }), 1);
      assert.equal(m.value('framewright_renders_completed_total'), 1);
    });

    await t.test('renders by state is read at scrape time: a change made behind the API shows', async () => {
      await db.sql`UPDATE renders SET status = 'done' WHERE status = 'failed'`;
      const m = await scrape();
      assert.equal(m.value('framewright_renders', { state: 'failed' }), 0);
      assert.equal(m.value('framewright_renders', { state: 'done' }), 3);
    });

    await t.test('request duration by route pattern, never by raw URL; unmatched as one route', async () => {
      const id = (await api('POST', '/v1/renders', { movie: movie(3) })).json<{ id: string }>().id;
      for (let i = 0; i < 3; i++) assert.equal((await api('GET', `/v1/renders/${id}`)).statusCode, 200);
      assert.equal((await api('GET', '/v1/renders/rnd_doesnotexist')).statusCode, 404);
      assert.equal((await api('GET', `/v1/nothing-here/${id}`)).statusCode, 404);
      const m = await scrape();
      const count = (labels: Record<string, string>) =>
        m.value('framewright_http_request_duration_seconds_count', labels);
      assert.equal(count({ route: '/v1/renders/:id', method: 'GET', status_code: '200' }), 3);
      assert.equal(count({ route: '/v1/renders/:id', method: 'GET', status_code: '404' }), 1);
      assert.ok(count({ route: '/v1/renders', method: 'POST', status_code: '201' }) >= 1);
      assert.equal(count({ route: 'unmatched', method: 'GET', status_code: '404' }), 1);
      const routes = new Set(m.find('framewright_http_request_duration_seconds_count').map((s) => s.labels.route));
      for (const route of routes) assert.ok(!route?.includes('rnd_'), `no raw URL as a route: ${route}`);
    });
  });
});

test('script generations by outcome, and their credits', async (t) => {
  await eachBackend(t, async (t, db) => {
    const fake = await startFakeOpenAI();
    t.after(() => fake.close());
    const scripts = { budgetMs: 90_000, requestTimeoutMs: 60_000, random: () => 1 };
    const app = await startApp(db, {
      config: testConfig({ scripts: { model: { apiKey: 'sk-test', baseUrl: fake.url, model: 'fake' }, ...scripts } }),
    });
    const off = await startApp(db, { config: testConfig({ scripts: { model: null, ...scripts } }) });
    t.after(async () => {
      await app.close();
      await off.close();
    });
    const acc = await newAccount(db, { plan: 'pro', credits: 100 });
    fake.reset({ reply: makeDraft({ scenes: 8 }) });
    const ok = await client(app, acc.key)('POST', '/v1/scripts', { brief: 'Lighthouses', sceneCount: 8 });
    assert.equal(ok.statusCode, 201, ok.body);
    const failed = await client(off, acc.key)('POST', '/v1/scripts', { brief: 'Lighthouses' });
    assert.equal(failed.statusCode, 502, failed.body);
    const m = parseExposition(await app.metrics.registry.metrics());
    assert.equal(m.value('framewright_script_generations_total', { outcome: 'success' }), 1);
    assert.equal(m.value('framewright_credits_charged_total', { reason: 'script' }), 2);
    const n = parseExposition(await off.metrics.registry.metrics());
    assert.equal(n.value('framewright_script_generations_total', { outcome: 'llm_failed' }), 1);
    assert.equal(n.value('framewright_script_generations_total', { outcome: 'success' }), 0);
  });
});
