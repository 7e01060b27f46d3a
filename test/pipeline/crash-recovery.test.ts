import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
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
  it('leaves nothing stuck or behind: the next start finishes the render, credits add up, scratch is swept', async () => {
    const db = await (postgresBackend as NonNullable<typeof postgresBackend>).open();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-crash-'));
    // The workers' temporary directory, this test's alone.
    const workerTmp = path.join(dataDir, 'worker-tmp');
    await mkdir(workerTmp);
    const renders = path.join(dataDir, 'tmp', 'renders');
    const uploads = path.join(dataDir, 'tmp', 'uploads');
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
      TMPDIR: workerTmp,
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
      // The server and its render worker killed outright, as the OOM killer or a power cut would:
      // no clean-up ran in either.
      const killed = server.child;
      const workers = execFileSync('pgrep', ['-P', String(killed.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n');
      execFileSync('kill', ['-KILL', ...workers, String(killed.pid)]);
      await new Promise((resolve) => killed.once('exit', resolve));
      // The attempt writes its output under DATA_DIR/tmp/renders at its end (it draws and encodes
      // in the worker's directory): killed then, it leaves the .part, named as here.
      const [held] = await db.sql<{ leaseOwner: string }[]>`SELECT lease_owner FROM renders WHERE id = ${id}`;
      const attemptId = held?.leaseOwner.split('.').at(-1);
      await mkdir(renders, { recursive: true });
      await writeFile(path.join(renders, `${id}.1-${attemptId}.mp4.part`), 'half an mp4');
      const ownerOf = async (dir: string) =>
        (await readFile(path.join(workerTmp, dir, '.owner'), 'utf8').catch(() => '')).trim();
      const leftDirs: string[] = [];
      for (const dir of await readdir(workerTmp)) {
        const owner = await ownerOf(dir);
        if (workers.some((pid) => `${hostname()} ${pid}` === owner)) leftDirs.push(dir);
      }
      assert.ok(leftDirs.length > 0, `the killed worker's scratch directory is left: ${await readdir(workerTmp)}`);
      // An upload cut by the kill two hours ago, and one of a request still streaming.
      await mkdir(uploads, { recursive: true });
      await writeFile(path.join(uploads, 'ast_cut.png'), 'partial');
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
      await utimes(path.join(uploads, 'ast_cut.png'), twoHoursAgo, twoHoursAgo);
      await writeFile(path.join(uploads, 'ast_streaming.png'), 'partial');

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
      // The start-up sweeps removed what the killed processes left: the attempt's files (the render
      // ran again as attempt 2, whose files its executor removed), the worker's scratch directory,
      // the cut upload; the upload still streaming stays.
      // The killed attempt's lease may not have run out at the start-up sweep: the sweep two
      // leases later takes its files.
      for (const deadline = Date.now() + 20_000; (await readdir(renders)).length > 0; ) {
        assert.ok(Date.now() < deadline, `left in DATA_DIR/tmp/renders: ${await readdir(renders)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const dir of leftDirs) {
        assert.ok(!(await readdir(workerTmp)).includes(dir), `${dir} removed by the next worker's start-up sweep`);
      }
      assert.deepEqual(await readdir(uploads), ['ast_streaming.png']);
    } finally {
      if (server) await stopServe(server);
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
