import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freePort } from '../pipeline/harness.ts';
import { spawnServe, stopServe, untilReady } from '../services/serve-process.ts';
import { eachBackend, startApp } from './helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('/readyz: ready, then not while a migration is missing or the process drains', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());
    const readyz = async () => {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] };
    };
    assert.deepEqual((await readyz()).body, { status: 'ready' });

    // A database restored from an older backup: the newest migration this build needs is missing.
    const [newest] = await db.sql<{ version: string; name: string }[]>`
      SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1`;
    assert.ok(newest);
    await db.sql`DELETE FROM schema_migrations WHERE version = ${newest.version}`;
    const missing = await readyz();
    assert.equal(missing.status, 503);
    assert.equal(missing.body.error.code, 'SERVICE_UNAVAILABLE');
    assert.match(missing.body.error.message, new RegExp(`lacks migrations ${newest.version}\\.`));
    assert.ok(missing.retryAfter, 'Retry-After is set');
    await db.sql`INSERT INTO schema_migrations (version, name) VALUES (${newest.version}, ${newest.name})`;
    assert.equal((await readyz()).status, 200);

    app.readiness.draining = true;
    const draining = await readyz();
    assert.equal(draining.status, 503);
    assert.match(draining.body.error.message, /shutting down/);
    const alive = await app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(alive.statusCode, 200, 'liveness does not change while draining');
  });
});

test('SIGTERM: not ready at once, still serving for SHUTDOWN_DELAY_SEC, then a clean exit', {
  timeout: 90_000,
}, async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-drain-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const served = spawnServe({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PUBLIC_BASE_URL: base,
    SHUTDOWN_DELAY_SEC: '3',
  });
  t.after(() => stopServe(served));
  await untilReady(served, base, 60_000);

  const exited = new Promise<number | null>((resolve) => served.child.once('exit', (code) => resolve(code)));
  const signalledAt = Date.now();
  served.child.kill('SIGTERM');
  let sawNotReady = false;
  for (const until = signalledAt + 2000; Date.now() < until; await sleep(100)) {
    const ready = await fetch(`${base}/readyz`);
    if (ready.status === 503) {
      sawNotReady = true;
      break;
    }
  }
  assert.ok(sawNotReady, `/readyz answered 503 within 2 s of SIGTERM:\n${served.log().slice(-2000)}`);
  // Within the delay, requests are still served: the load balancer may still send some.
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  const docs = await fetch(`${base}/v1/openapi.json`);
  assert.equal(docs.status, 200, 'the API still answers while its readiness is withdrawn');
  assert.ok(Date.now() - signalledAt < 3000, 'checked within the delay');
  assert.equal(await exited, 0, served.log().slice(-3000));
  assert.ok(Date.now() - signalledAt >= 3000, 'serve kept its listener for SHUTDOWN_DELAY_SEC');
});
