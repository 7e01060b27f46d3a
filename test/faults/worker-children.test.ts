/**
 * Issue 27, item 6: a render worker killed with SIGKILL takes every process it started with it
 * (the segment renderers, ffmpeg, the espeak-ng child), and the render is finished by the retry.
 * Before, each kill left the X server it drew on then (65 MB) and the encoders running,
 * reparented to PID 1.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { backends, newAccount } from '../api/helpers.ts';
import { freePort, tinyMovie } from '../pipeline/harness.ts';
import { describeProcess, type ServeProcess, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';
import { descendants, type Proc, stillRunning } from './proc-tree.ts';

const postgresBackend = backends().find((b) => b.name === 'postgres');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const show = (procs: Proc[]) => procs.map((p) => `${p.pid} ${p.comm} (${p.cmdline.slice(0, 120)})`).join('\n');

describe('a render worker killed with SIGKILL mid-render', {
  skip:
    process.platform !== 'linux'
      ? 'reads the process tree from /proc (Linux)'
      : postgresBackend
        ? false
        : 'needs TEST_DATABASE_URL (run through scripts/test.sh)',
  timeout: 120_000,
}, () => {
  it('leaves none of its processes running, and the retry finishes the render', async () => {
    const db = await (postgresBackend as NonNullable<typeof postgresBackend>).open();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-children-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      RENDER_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
      AUTH_CACHE_TTL_MS: '0',
    };
    let server: ServeProcess | undefined;
    let before: Proc[] = [];
    try {
      const { key } = await newAccount(db, { plan: 'pro', credits: 300 });
      const call = async (method: string, url: string, body?: unknown) => {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return (await res.json()) as Record<string, unknown>;
      };
      server = spawnServe(env);
      await untilReady(server, base);
      const serveProcess = server;
      const created = await call('POST', '/v1/renders', { movie: tinyMovie({ duration: 30 }) });
      const id = created.id as string;
      assert.equal(typeof id, 'string', JSON.stringify(created));

      // The worker (`framewright worker`, a child of serve) once it runs a segment renderer, and
      // that its encoder (ffmpeg reading raw frames): the encoder probe's ffmpeg ends alone.
      let worker: Proc | undefined;
      for (const deadline = Date.now() + 60_000; ; await sleep(50)) {
        assert.ok(
          Date.now() < deadline,
          `no worker with a segment renderer and ffmpeg:\n${describeProcess(serveProcess)}`,
        );
        const render = await call('GET', `/v1/renders/${id}`);
        assert.notEqual(render.status, 'done', 'the render must still run when its worker is killed');
        worker = descendants(serveProcess.child.pid as number).find((p) => / worker$/.test(p.cmdline));
        if (!worker) continue;
        before = descendants(worker.pid);
        const segment = before.some((p) => p.cmdline.includes('segment-child'));
        const encoder = before.some((p) => p.comm === 'ffmpeg' && p.cmdline.includes('rawvideo'));
        if (segment && encoder) break;
      }
      process.kill(worker.pid, 'SIGKILL');
      await sleep(1500);
      const left = before.filter(stillRunning);
      assert.deepEqual(
        show(left),
        '',
        `the killed worker's processes still running (of ${before.length}:\n${show(before)})`,
      );

      let render: Record<string, unknown> = {};
      for (const deadline = Date.now() + 90_000; !['done', 'failed'].includes(render.status as string); ) {
        assert.ok(Date.now() < deadline, `render stuck: ${JSON.stringify(render)}`);
        await sleep(250);
        render = await call('GET', `/v1/renders/${id}`);
      }
      assert.equal(render.status, 'done', JSON.stringify(render.error));
      const [row] = await db.sql<{ attempts: number }[]>`SELECT attempts FROM renders WHERE id = ${id}`;
      assert.equal(row?.attempts, 2, 'retried once after the kill');
    } finally {
      // A failing run must not leave what it found running on the machine.
      for (const p of before.filter(stillRunning)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {}
      }
      if (server) await stopServe(server);
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
