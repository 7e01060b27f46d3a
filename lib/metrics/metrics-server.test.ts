import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter } from 'prom-client';
import { startMetricsServer } from './metrics-server.ts';
import { createRegistry, FRAMEWRIGHT_VERSION } from './registry.ts';

test('createRegistry: build info from package.json, process metrics, nothing in the global registry', async () => {
  const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
  assert.equal(FRAMEWRIGHT_VERSION, pkg.version);
  const a = createRegistry();
  const b = createRegistry({ processMetrics: false });
  // Two registries in one process: no "already registered" clash, and each counts on its own.
  new Counter({ name: 'x_total', help: 'x', registers: [a] }).inc();
  new Counter({ name: 'x_total', help: 'x', registers: [b] });
  const text = await a.metrics();
  assert.match(
    text,
    new RegExp(`^framewright_build_info\\{version="${pkg.version}",node_version="${process.version}"\\} 1$`, 'm'),
  );
  assert.match(text, /^process_resident_memory_bytes \d+/m);
  assert.match(text, /^x_total 1$/m);
  const other = await b.metrics();
  assert.match(other, /^x_total 0$/m);
  assert.doesNotMatch(other, /process_resident_memory_bytes/);
});

test('the metrics listener: /metrics, probes, 404 and 405, and a clean close', async () => {
  const registry = createRegistry({ processMetrics: false });
  let ready: boolean | Error = false;
  const server = await startMetricsServer({
    registry,
    port: 0,
    host: '127.0.0.1',
    healthz: () => true,
    readyz: async () => {
      if (ready instanceof Error) throw ready;
      return ready;
    },
    probeTimeoutMs: 200,
  });
  const base = `http://127.0.0.1:${server.port}`;
  const metrics = await fetch(`${base}/metrics`);
  assert.equal(metrics.status, 200);
  assert.equal(metrics.headers.get('content-type'), registry.contentType);
  assert.match(await metrics.text(), /framewright_build_info/);
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  assert.equal((await fetch(`${base}/readyz`)).status, 503);
  ready = true;
  assert.equal((await fetch(`${base}/readyz`)).status, 200);
  ready = new Error('database down');
  assert.equal((await fetch(`${base}/readyz`)).status, 503, 'a probe that throws is not ready');
  assert.equal((await fetch(`${base}/`)).status, 404);
  assert.equal((await fetch(`${base}/metrics/x`)).status, 404);
  assert.equal((await fetch(`${base}/metrics`, { method: 'POST' })).status, 405);
  await server.close();
  await assert.rejects(fetch(`${base}/metrics`), 'closed: nothing listens any more');

  // Without probes only /metrics is served; a hung probe answers 503 after the timeout.
  const bare = await startMetricsServer({ registry, port: 0, host: '127.0.0.1' });
  assert.equal((await fetch(`http://127.0.0.1:${bare.port}/healthz`)).status, 404);
  assert.equal((await fetch(`http://127.0.0.1:${bare.port}/readyz`)).status, 404);
  await bare.close();
  const hung = await startMetricsServer({
    registry,
    port: 0,
    host: '127.0.0.1',
    readyz: () => new Promise<boolean>(() => {}),
    probeTimeoutMs: 100,
  });
  assert.equal((await fetch(`http://127.0.0.1:${hung.port}/readyz`)).status, 503);
  await hung.close();
});
