/**
 * Issue 27, item 7: a full disk is the platform's fault. With DATA_DIR and the worker's TMPDIR on
 * a small tmpfs filled to the last byte, an upload answers 507 INSUFFICIENT_STORAGE (not 500) and
 * a render with a voice element fails INSUFFICIENT_STORAGE with no path into the document (it
 * failed TTS_FAILED at the voice's path), refunded; nothing dies, and freeing the disk is enough.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { backends, newAccount } from '../api/helpers.ts';
import { freePort, tinyMovie } from '../pipeline/harness.ts';
import { describeProcess, type ServeProcess, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';
import { solidPngBytes } from '../worker/fixtures.ts';

const postgresBackend = backends().find((b) => b.name === 'postgres');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fields of the API's answers this test reads. */
interface Answer {
  id?: string;
  status?: string;
  error?: { code?: string; message?: string; path?: string } | null;
  credits?: { balance: number; reserved: number };
}

/** A tmpfs of `kib` KiB at a new directory, or why there cannot be one here. */
function mountTmpfs(kib: number): { dir: string } | { reason: string } {
  if (process.platform !== 'linux') return { reason: 'mounts a tmpfs (Linux only)' };
  if (process.getuid?.() !== 0) return { reason: 'mounts a tmpfs, which needs root' };
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-diskfull-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { reason: `mount -t tmpfs failed here: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** Writes `file` until the disk refuses a byte more (ENOSPC), then gives `leave` bytes back. */
function fill(file: string, leave = 0): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(16 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    if (leave) ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leave));
    closeSync(fd);
  }
}

const mounted = postgresBackend
  ? mountTmpfs(2048)
  : { reason: 'needs TEST_DATABASE_URL (run through scripts/test.sh)' };

describe('a full disk', {
  skip: 'reason' in mounted ? mounted.reason : false,
  timeout: 90_000,
}, () => {
  const disk = (mounted as { dir: string }).dir;
  let db: Awaited<ReturnType<NonNullable<typeof postgresBackend>['open']>>;
  let server: ServeProcess | undefined;
  let base = '';
  let key = '';
  const call = async (method: string, url: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': type } : {}) },
      ...(body ? { body: Buffer.isBuffer(body) ? body : JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Answer };
  };

  before(async () => {
    db = await (postgresBackend as NonNullable<typeof postgresBackend>).open();
    ({ key } = await newAccount(db, { plan: 'pro', credits: 300 }));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // DATA_DIR (uploads are staged under DATA_DIR/tmp) and the worker's scratch space (TMPDIR),
    // both on the tmpfs; the database is not.
    mkdirSync(path.join(disk, 'data'));
    mkdirSync(path.join(disk, 'tmp'));
    server = spawnServe({
      DATABASE_URL: db.url,
      DATA_DIR: path.join(disk, 'data'),
      TMPDIR: path.join(disk, 'tmp'),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      RENDER_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
      AUTH_CACHE_TTL_MS: '0',
    });
    await untilReady(server, base);
    fill(path.join(disk, 'fill'));
  });

  after(async () => {
    if (server) await stopServe(server);
    await db?.close();
    try {
      execFileSync('umount', [disk], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', disk], { stdio: 'pipe' });
    }
    rmSync(disk, { recursive: true, force: true });
  });

  it('refuses an upload with 507 INSUFFICIENT_STORAGE, not a 500', async () => {
    const png = await solidPngBytes('#ff0000', 64);
    const { status, body } = await call('POST', '/v1/assets', png, 'image/png');
    assert.equal(status, 507, JSON.stringify(body));
    assert.equal(body.error?.code, 'INSUFFICIENT_STORAGE');
    assert.equal(body.error?.path, undefined);
  });

  it('fails a voice render with INSUFFICIENT_STORAGE, no path into the document, refunded', async () => {
    const movie = tinyMovie({
      elements: [
        { id: 't1', type: 'text', text: 'Hi', fontSize: 40, color: '#ffffff' },
        { id: 'vo', type: 'voice', text: 'Hello there.', voiceId: 'espeak-en-us' },
      ],
    });
    const created = await call('POST', '/v1/renders', { movie });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    let render: Answer = {};
    for (const deadline = Date.now() + 60_000; !['done', 'failed'].includes(render.status ?? ''); await sleep(200)) {
      assert.ok(Date.now() < deadline, `render stuck: ${JSON.stringify(render)}`);
      render = (await call('GET', `/v1/renders/${id}`)).body;
    }
    assert.equal(render.status, 'failed');
    assert.equal(render.error?.code, 'INSUFFICIENT_STORAGE', JSON.stringify(render.error));
    assert.equal(render.error?.path, undefined, 'a platform fault names no place in the document');
    const usage = (await call('GET', '/v1/usage')).body;
    assert.deepEqual(
      { balance: usage.credits?.balance, reserved: usage.credits?.reserved },
      { balance: 300, reserved: 0 },
      'nothing charged, the reservation released',
    );
    const [row] = await db.sql<{ attempts: number }[]>`SELECT attempts FROM renders WHERE id = ${id}`;
    assert.equal(row?.attempts, 1, 'the worker answered: no crash, no retry');
  });

  it('kills nothing, and freeing the disk is enough', async () => {
    const served = server as ServeProcess;
    assert.equal(served.child.exitCode, null, describeProcess(served));
    assert.equal(served.child.signalCode, null, describeProcess(served));
    assert.doesNotMatch(served.log(), /worker process died/, describeProcess(served));
    rmSync(path.join(disk, 'fill'));
    const { status, body } = await call('POST', '/v1/assets', await solidPngBytes('#00ff00', 64), 'image/png');
    assert.equal(status, 201, JSON.stringify(body));
  });

  it('refuses with 507 an upload that fits its staging but not the object store', async () => {
    // A photo's worth of noise (PNG does not compress it): staged whole under DATA_DIR/tmp, then
    // copied into DATA_DIR/objects, where the disk runs out (the local store's ENOSPC was a 500).
    const sharp = (await import('sharp')).default;
    const png = await sharp({
      create: {
        width: 300,
        height: 300,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    fill(path.join(disk, 'fill'), Math.round(png.length * 1.5));
    try {
      const { status, body } = await call('POST', '/v1/assets', png, 'image/png');
      assert.equal(status, 507, JSON.stringify(body));
      assert.equal(body.error?.code, 'INSUFFICIENT_STORAGE');
    } finally {
      rmSync(path.join(disk, 'fill'));
    }
    const { status, body } = await call('POST', '/v1/assets', png, 'image/png');
    assert.equal(status, 201, `with the disk freed it is stored: ${JSON.stringify(body)}`);
  });
});
