// POST /v1/renders/{id}/cancel on one machine, with real worker processes (the in-process
// executor as serve assembles it), on PostgreSQL and PGlite: a render cancelled while its worker
// prepares (an asset that never arrives) or renders stops that worker within a bound, its scratch
// files (the executor's and the worker's own temporary directory) are removed, it never becomes
// done, nothing is charged, and the pool replaces the worker: the next render is done. A render
// cancelled while queued behind another is never run.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createPipeline, type Pipeline, pipelineConfig } from '../../api/execution/pipeline.ts';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { type Database, openDatabase } from '../../store/database.ts';
import { backends, type Call, client, logger, newAccount, startApp, testConfig } from '../api/helpers.ts';
import { tinyMovie } from './harness.ts';

/** How long a cancelled render's worker may take to be gone (SIGTERM, then SIGKILL at 5 s). */
const GONE_WITHIN_MS = 8_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Resource = {
  id: string;
  status: string;
  progress: number;
  error: { code: string; message: string } | null;
  outputUrl: string | null;
};

/** The render worker processes this test process started (framewright worker, over IPC). */
async function workerPids(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command (which may hold spaces): state, then the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const argv = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0');
      if (argv.includes('worker')) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(50)) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
  }
}

/** Names under `dir` (recursively) that contain `part`. */
async function filesNamed(dir: string, part: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((e) => e.includes(part));
}

for (const backend of backends()) {
  describe(`cancelling renders on the in-process executor, ${backend.name}`, { timeout: 240_000 }, () => {
    let db: Database;
    let app: FastifyInstance;
    let pipeline: Pipeline;
    let dataDir: string;
    let workerTmp: string;
    let assets: Server;
    let assetUrl: string;
    /** Asset requests that arrived, kept unanswered (an asset that never arrives). */
    const stalled: ServerResponse[] = [];

    before(async () => {
      db = await backend.open();
      dataDir = await mkdtemp(path.join(tmpdir(), 'fw-cancel-'));
      // The workers' own temporary files go here, so the test can see them removed.
      workerTmp = await mkdtemp(path.join(tmpdir(), 'fw-cancel-worker-tmp-'));
      assets = createServer((_req, res) => stalled.push(res));
      await new Promise<void>((resolve) => assets.listen(0, '127.0.0.1', resolve));
      assetUrl = `http://127.0.0.1:${(assets.address() as AddressInfo).port}/never.png`;
      const api = testConfig({ dataDir, allowPrivateUrls: true });
      const { values } = readEnv(EnvSchema, { ALLOW_PRIVATE_URLS: 'true', RENDER_CONCURRENCY: '1' });
      pipeline = await createPipeline({
        api,
        config: pipelineConfig(values, process.env),
        db,
        logger,
        executor: {
          pollMs: 200,
          workerEnv: { ...process.env, TMPDIR: workerTmp, ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'warn' },
        },
      });
      app = await startApp(db, {
        config: api,
        executor: pipeline.executor,
        objects: pipeline.objects,
        links: pipeline.links,
      });
      pipeline.executor.start();
      await pipeline.inProcess?.warm();
    });

    after(async () => {
      for (const res of stalled) res.destroy();
      assets?.close();
      await app?.close();
      await pipeline?.close();
      await db?.close();
      await rm(dataDir, { recursive: true, force: true });
      await rm(workerTmp, { recursive: true, force: true });
    });

    const status = async (api: Call, id: string) => (await api('GET', `/v1/renders/${id}`)).json<Resource>();
    const credits = async (api: Call) =>
      (await api('GET', '/v1/usage')).json<{ credits: Record<string, number> }>().credits;
    const charges = async (accountId: string) =>
      (
        await db.sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = ${accountId} AND reason = 'render'`
      )[0]?.n;

    /**
     * Cancels render `id` while its one worker runs it, and checks what the cancellation leaves:
     * the worker gone within the bound, no scratch file of the render, never done, not charged.
     */
    async function cancelRunning(
      api: Call,
      accountId: string,
      id: string,
      phase: 'preparing' | 'rendering',
      canceller: Call = api,
    ) {
      const [worker, ...more] = await workerPids();
      assert.ok(worker !== undefined && more.length === 0, 'one worker (RENDER_CONCURRENCY=1)');
      assert.equal((await status(api, id)).status, phase);
      const ownTmp = async () => (await readdir(workerTmp)).filter((n) => n.startsWith('framewright-render-'));
      assert.equal((await ownTmp()).length, 1, 'the worker renders in a temporary directory of its own');
      const asked = Date.now();
      const res = await canceller('POST', `/v1/renders/${id}/cancel`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<Resource>().status, 'failed');
      assert.equal(res.json<Resource>().error?.code, 'RENDER_CANCELLED');

      await until('the cancelled render worker to be gone', async () => !(await workerPids()).includes(worker));
      const tookMs = Date.now() - asked;
      assert.ok(tookMs < GONE_WITHIN_MS, `its worker was gone ${tookMs} ms after the cancel`);
      // The executor removes the attempt's files once its worker is gone; the worker its own.
      const scratch = path.join(dataDir, 'tmp', 'renders');
      await until('the attempt files to be removed', async () => (await filesNamed(scratch, id)).length === 0, 5_000);
      assert.deepEqual(await ownTmp(), [], "the worker's temporary directory is removed");
      await sleep(1_500); // Anything late (a report, an outcome) would have landed by now.
      const r = await status(api, id);
      assert.equal(r.status, 'failed', 'never done');
      assert.equal(r.error?.code, 'RENDER_CANCELLED');
      assert.equal(r.outputUrl, null);
      assert.deepEqual(await filesNamed(dataDir, id), [], 'no output stored');
      assert.deepEqual(await credits(api), { balance: 300, reserved: 0, available: 300 });
      assert.equal(await charges(accountId), 0, 'nothing charged');
      return tookMs;
    }

    it('rendering: its worker stops, its files go, it is never done, nothing is charged; a queued one never runs', async (t) => {
      const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 300 });
      const api = client(app, key);
      const id = (await api('POST', '/v1/renders', { movie: tinyMovie({ duration: 60 }) })).json<Resource>().id;
      // Behind it, with one worker: queued until it ends.
      const queued = (await api('POST', '/v1/renders', { movie: tinyMovie({ duration: 1 }) })).json<Resource>().id;
      await until('the render to be rendering', async () => (await status(api, id)).status === 'rendering');
      const cancelQueued = await api('POST', `/v1/renders/${queued}/cancel`);
      assert.equal(cancelQueued.statusCode, 200, cancelQueued.body);
      assert.equal(cancelQueued.json<Resource>().status, 'failed');

      const tookMs = await cancelRunning(api, accountId, id, 'rendering');
      t.diagnostic(`worker gone ${tookMs} ms after the cancel`);
      const [{ attempts } = { attempts: -1 }] = await db.sql<{ attempts: number }[]>`
        SELECT attempts FROM renders WHERE id = ${queued}`;
      assert.equal(attempts, 0, 'the queued render was never claimed');
      assert.equal((await status(api, queued)).status, 'failed');

      // The pool replaced the stopped worker: the next render is done.
      const next = (await api('POST', '/v1/renders', { movie: tinyMovie({ duration: 1 }) })).json<Resource>().id;
      const done = await until('the next render to finish', async () => {
        const r = await status(api, next);
        return r.status === 'done' || r.status === 'failed' ? r : undefined;
      });
      assert.equal(done.status, 'done', JSON.stringify(done.error));
    });

    // On PostgreSQL through another API process (its own connections, no executor): this one
    // learns of it by LISTEN, as replicas do. Preparing sends no progress that would tell it, and
    // the heartbeat (every 10 s) comes later than the bound.
    const other = backend.name === 'postgres' ? 'through another API process' : 'through this one';
    it(`preparing (an asset that never arrives), cancelled ${other}: its worker stops, nothing is charged`, async (t) => {
      const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 300 });
      const api = client(app, key);
      let canceller = api;
      if (db.url && backend.name === 'postgres') {
        const replicaDb = await openDatabase({ databaseUrl: db.url, dataDir, logger, migrate: false });
        const replica = await startApp(replicaDb);
        t.after(async () => {
          await replica.close();
          await replicaDb.close();
        });
        canceller = client(replica, key);
      }
      const seen = stalled.length;
      const movie = tinyMovie({
        duration: 2,
        elements: [{ id: 'img', type: 'image', src: assetUrl, width: 40, height: 40 }],
      });
      const created = await api('POST', '/v1/renders', { movie });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json<Resource>().id;
      await until('the worker to ask for the asset', async () => stalled.length > seen);
      const tookMs = await cancelRunning(api, accountId, id, 'preparing', canceller);
      t.diagnostic(`worker gone ${tookMs} ms after the cancel`);
    });
  });
}
