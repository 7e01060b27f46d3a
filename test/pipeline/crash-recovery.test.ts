import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { backends, newAccount } from '../api/helpers.ts';
import { type ServeProcess, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';
import { freePort, tinyMovie } from './harness.ts';

const postgresBackend = backends().find((b) => b.name === 'postgres');

/** Starts `framewright serve` as a real process and waits until it answers. */
async function serve(env: NodeJS.ProcessEnv, base: string): Promise<ServeProcess> {
  const served = spawnServe(env);
  await untilReady(served, base);
  return served;
}

describe('a server killed with SIGKILL mid-render', {
  skip: postgresBackend ? false : 'needs TEST_DATABASE_URL (run through scripts/test.sh)',
  timeout: 180_000,
}, () => {
  it('leaves nothing stuck: the next start finishes the render and credits add up', async () => {
    const db = await (postgresBackend as NonNullable<typeof postgresBackend>).open();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-crash-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      RENDER_LEASE_SEC: '2',
      RENDER_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
      AUTH_CACHE_TTL_MS: '0',
    };
    let server: ServeProcess | undefined;
    try {
      const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 300 });
      const call = async (method: string, url: string, body?: unknown) => {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return (await res.json()) as Record<string, unknown>;
      };
      server = await serve(env, base);
      const created = await call('POST', '/v1/renders', { movie: tinyMovie({ duration: 20 }) });
      const id = created.id as string;
      for (let status = ''; status !== 'rendering'; ) {
        status = (await call('GET', `/v1/renders/${id}`)).status as string;
        assert.notEqual(status, 'done', 'the render must still be running when the server is killed');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const killed = server.child;
      killed.kill('SIGKILL');
      await new Promise((resolve) => killed.once('exit', resolve));

      server = await serve(env, base);
      let render: Record<string, unknown> = {};
      const deadline = Date.now() + 120_000;
      while (!['done', 'failed'].includes(render.status as string)) {
        assert.ok(Date.now() < deadline, `render stuck: ${JSON.stringify(render)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
        render = await call('GET', `/v1/renders/${id}`);
      }
      assert.equal(render.status, 'done', JSON.stringify(render.error));
      const [row] = await db.sql<{ attempts: number; chargedCredits: number }[]>`
          SELECT attempts, charged_credits FROM renders WHERE id = ${id}`;
      assert.equal(row?.attempts, 2, 'retried once from the start');
      const usage = await call('GET', '/v1/usage');
      const credits = usage.credits as { balance: number; reserved: number };
      assert.equal(credits.reserved, 0);
      assert.equal(credits.balance, 300 - (row?.chargedCredits ?? 0));
      const [ledger] = await db.sql<{ sum: number }[]>`
          SELECT coalesce(sum(delta), 0)::int AS sum FROM credit_ledger WHERE account_id = ${accountId}`;
      assert.equal(ledger?.sum, credits.balance, 'the ledger adds up to the balance');
    } finally {
      if (server) await stopServe(server);
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
