// The typed API clients (clients/typescript, clients/python) against a live `framewright serve` on
// a fresh PostgreSQL database: each creates a render from examples/hello.json with an
// Idempotency-Key (and replays it), polls it to done, downloads the MP4 through outputUrl (ffprobe:
// H.264 video and the voice's audio), lists renders one per page following hasMore, and reads the
// typed error envelope of a bad movie (VALIDATION_ERROR at its JSON path) and of a wrong key (401
// UNAUTHORIZED). Each client has an account of its own (made with `framewright accounts create`),
// so the two run at once and each sees exactly its own renders. The TypeScript client is also built
// as the package it is published as (its own tsconfig: JavaScript and declarations), and that
// build, on plain Node, makes the wrong-key call. And README.md's Clients examples run as printed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import {
  createFramewrightClient,
  type FramewrightClient,
  type MovieDocument,
  type RenderPage,
  waitForRender,
} from '../../clients/typescript/src/index.ts';
import { backends } from '../api/helpers.ts';
import { ffprobe } from '../pipeline/harness.ts';
import { startLocalServe, stopLocalServe, untilReady, withServeLog } from '../services/serve-process.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(ROOT, 'bin/framewright');
const PYTHON = path.join(ROOT, '.cache/venv/bin/python');
const HELLO = path.join(ROOT, 'examples/hello.json');
const postgres = backends().find((b) => b.name === 'postgres');

/** A second render that takes a second or so on 2 cores (320x180, 15 fps, 1 s): page two of the list. */
const TINY: MovieDocument = {
  schema: 'v1',
  width: 320,
  height: 180,
  fps: 15,
  scenes: [
    {
      id: 'tiny',
      duration: 1,
      background: '#1a2238',
      elements: [{ id: 'title', type: 'text', text: 'Page two', fontSize: 28, color: '#ffffff' }],
    },
  ],
};

type ClientModule = typeof import('../../clients/typescript/src/index.ts');

/**
 * clients/typescript built as its package.json says (`npm run build`: tsc with its tsconfig) into
 * `out`, and the module its package.json exports, loaded. `out` is inside the repository, so that
 * the built module finds openapi-fetch in node_modules/ as an installed package would its own.
 */
async function buildPackage(out: string): Promise<ClientModule> {
  const dir = path.join(ROOT, 'clients/typescript');
  const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
    scripts: { build: string };
    exports: { '.': { types: string; default: string } };
  };
  assert.equal(pkg.scripts.build, 'tsc -p tsconfig.json');
  await mkdir(out, { recursive: true });
  await run(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', path.join(dir, 'tsconfig.json'), '--outDir', out]);
  assert.deepEqual((await readdir(out)).sort(), ['index.d.ts', 'index.js', 'schema.d.ts', 'schema.js']);
  const built = (p: string) => path.join(out, path.relative('dist', p));
  assert.equal(built(pkg.exports['.'].types), path.join(out, 'index.d.ts'));
  return (await import(pathToFileURL(built(pkg.exports['.'].default)).href)) as ClientModule;
}

/** `framewright accounts create --plan pro --json` on `databaseUrl`: the account and its key. */
async function newAccount(databaseUrl: string): Promise<{ accountId: string; key: string }> {
  const { stdout } = await run(BIN, ['accounts', 'create', '--plan', 'pro', '--credits', '100', '--json'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });
  return JSON.parse(stdout);
}

/** What GET /v1/renders says without paging (page_size 100): the ids, newest first. */
async function allRenderIds(base: string, key: string): Promise<string[]> {
  const res = await fetch(`${base}/v1/renders?page_size=100`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200);
  return ((await res.json()) as RenderPage).items.map((r) => r.id);
}

/**
 * The MP4 at `file`: H.264 video of hello.json's size, the voice's audio, and the length the render
 * says (`durationSec`; null: only some length).
 */
async function assertMp4(file: string, durationSec: number | null): Promise<void> {
  const probe = await ffprobe(file);
  const video = probe.streams.find((s) => s.codec_type === 'video');
  assert.equal(video?.codec_name, 'h264', JSON.stringify(probe.streams));
  // hello.json: 16:9 at 480p.
  assert.equal(video?.height, 480);
  assert.equal(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name, 'aac');
  const length = Number(probe.format.duration);
  assert.ok(length > 1, `${length} s`);
  if (durationSec !== null) assert.ok(Math.abs(length - durationSec) < 0.2, `${length} s vs ${durationSec}`);
}

/** The list one page at a time (page_size=1), following hasMore as docs/api.md defines it. */
async function pageThrough(fw: FramewrightClient): Promise<RenderPage[]> {
  const pages: RenderPage[] = [];
  for (let page = 1; page <= 10; page++) {
    const { data, error } = await fw.GET('/v1/renders', { params: { query: { page, page_size: 1 } } });
    assert.ok(data, JSON.stringify(error));
    pages.push(data);
    if (!data.hasMore) break;
  }
  return pages;
}

test('the TypeScript and Python clients against a live framewright serve', {
  skip: postgres ? false : 'TEST_DATABASE_URL is not set: the serve runs on PostgreSQL (run scripts/test.sh)',
  timeout: 240_000,
  concurrency: 3,
}, async (t) => {
  const db = await (postgres as NonNullable<typeof postgres>).open();
  const served = await startLocalServe(db.url, { AUTH_CACHE_TTL_MS: '0' });
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-clients-'));
  const buildDir = path.join(ROOT, '.tmp', `client-build-${process.pid}`);
  t.after(async () => {
    await stopLocalServe(served);
    await db.close();
    await rm(dir, { recursive: true, force: true });
    await rm(buildDir, { recursive: true, force: true });
  });
  // The database is migrated already: the accounts are made (and the package built) while serve starts.
  const [tsAccount, pyAccount, readmeAccount, builtClient] = await Promise.all([
    newAccount(db.url),
    newAccount(db.url),
    newAccount(db.url),
    buildPackage(buildDir),
    untilReady(served, served.base, 60_000),
  ]);
  const hello = JSON.parse(await readFile(HELLO, 'utf8')) as MovieDocument;

  await withServeLog(served, async () => {
    await Promise.all([
      t.test('TypeScript: openapi-fetch over the generated types', async () => {
        const fw = createFramewrightClient({ baseUrl: `${served.base}/`, apiKey: tsAccount.key });
        const create = () =>
          fw.POST('/v1/renders', { params: { header: { 'idempotency-key': 'ts-hello-1' } }, body: { movie: hello } });
        const created = await create();
        assert.equal(created.response.status, 201, JSON.stringify(created.error));
        assert.ok(created.data);
        assert.equal(created.data.status, 'queued');
        // The same key and body: the same render, not a second one (the header was sent).
        const replayed = await create();
        assert.equal(replayed.response.status, 200, JSON.stringify(replayed.error));
        assert.equal(replayed.data?.id, created.data.id);
        const tiny = await fw.POST('/v1/renders', { body: { movie: TINY } });
        assert.ok(tiny.data, JSON.stringify(tiny.error));

        const done = await waitForRender(fw, created.data.id, {
          intervalMs: 200,
          signal: AbortSignal.timeout(120_000),
        });
        assert.equal(done.status, 'done', JSON.stringify(done.error));
        assert.equal(done.progress, 100);
        assert.ok(done.outputUrl);
        assert.equal((await waitForRender(fw, tiny.data.id, { intervalMs: 200 })).status, 'done');

        // outputUrl is signed: a plain fetch, no key.
        const download = await fetch(done.outputUrl);
        assert.equal(download.status, 200);
        assert.equal(download.headers.get('content-type'), 'video/mp4');
        const mp4 = path.join(dir, 'typescript.mp4');
        await writeFile(mp4, Buffer.from(await download.arrayBuffer()));
        await assertMp4(mp4, done.durationSec);

        const pages = await pageThrough(fw);
        assert.deepEqual(
          pages.map((p) => [p.page, p.pageSize, p.total, p.hasMore, p.items.length]),
          [
            [1, 1, 2, true, 1],
            [2, 1, 2, false, 1],
          ],
        );
        assert.deepEqual(
          pages.flatMap((p) => p.items.map((r) => r.id)),
          [tiny.data.id, created.data.id],
        );
        assert.deepEqual(await allRenderIds(served.base, tsAccount.key), [tiny.data.id, created.data.id]);

        const bad = structuredClone(hello);
        bad.scenes[0]!.duration = -1;
        const invalid = await fw.POST('/v1/renders', { body: { movie: bad } });
        assert.equal(invalid.response.status, 400);
        assert.equal(invalid.error?.error.code, 'VALIDATION_ERROR');
        assert.equal(invalid.error.error.path, 'scenes[0].duration');
        assert.equal(invalid.error.requestId, invalid.response.headers.get('x-request-id'));

        // The published build this time.
        const stranger = builtClient.createFramewrightClient({
          baseUrl: served.base,
          apiKey: `fw_live_${'x'.repeat(40)}`,
        });
        const refused = await stranger.GET('/v1/renders');
        assert.equal(refused.response.status, 401);
        assert.equal(refused.error?.error.code, 'UNAUTHORIZED');
      }),

      t.test('Python: the openapi-python-client package', async () => {
        const mp4 = path.join(dir, 'python.mp4');
        let stdout: string;
        try {
          ({ stdout } = await run(PYTHON, [path.join(ROOT, 'test/clients/python_client.py')], {
            env: {
              ...process.env,
              PYTHONPATH: path.join(ROOT, 'clients/python/framewright-client'),
              PYTHONDONTWRITEBYTECODE: '1',
              FRAMEWRIGHT_BASE_URL: served.base,
              FRAMEWRIGHT_API_KEY: pyAccount.key,
              HELLO_MOVIE: HELLO,
              TINY_MOVIE: JSON.stringify(TINY),
              OUT_MP4: mp4,
            },
          }));
        } catch (err) {
          const e = err as Error & { stderr?: string };
          assert.fail(`test/clients/python_client.py failed:\n${e.stderr ?? e.message}`);
        }
        const report = JSON.parse(stdout) as {
          bodyRoundTrip: boolean;
          created: { status: number; id: string; state: string };
          replayed: { status: number; id: string };
          done: { status: string; progress: number; outputUrl: string | null; durationSec: number | null };
          tiny: { id: string; status: string };
          download: { status: number; contentType: string };
          pages: { page: number; pageSize: number; total: number; hasMore: boolean; ids: string[] }[];
          invalid: { status: number; code: string; path: string; requestId: string };
          unauthorized: { status: number; code: string };
        };
        assert.equal(report.bodyRoundTrip, true, 'hello.json through the generated models and back is unchanged');
        assert.deepEqual([report.created.status, report.created.state], [201, 'queued']);
        assert.deepEqual(report.replayed, { status: 200, id: report.created.id });
        assert.deepEqual(
          [report.done.status, report.done.progress, report.tiny.status],
          ['done', 100, 'done'],
          JSON.stringify(report.done),
        );
        assert.match(report.done.outputUrl ?? '', new RegExp(`/v1/outputs/${report.created.id}\\?`));
        assert.deepEqual(report.download, { status: 200, contentType: 'video/mp4' });
        await assertMp4(mp4, report.done.durationSec);
        assert.deepEqual(report.pages, [
          { page: 1, pageSize: 1, total: 2, hasMore: true, ids: [report.tiny.id] },
          { page: 2, pageSize: 1, total: 2, hasMore: false, ids: [report.created.id] },
        ]);
        assert.deepEqual(await allRenderIds(served.base, pyAccount.key), [report.tiny.id, report.created.id]);
        assert.deepEqual(
          [report.invalid.status, report.invalid.code, report.invalid.path],
          [400, 'VALIDATION_ERROR', 'scenes[0].duration'],
        );
        assert.match(report.invalid.requestId, /^req_/);
        assert.deepEqual(report.unauthorized, { status: 401, code: 'UNAUTHORIZED' });
      }),

      t.test("README.md's Clients examples, as printed", async () => {
        const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
        const section = /\n## Clients\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
        const block = (lang: string) => {
          const code = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section)?.[1];
          assert.ok(code, `README.md, Clients: no ${lang} example`);
          return code;
        };
        // Each in a directory of its own with examples/hello.json, where it writes hello.mp4.
        const workDir = async (name: string) => {
          const cwd = path.join(dir, name);
          await mkdir(path.join(cwd, 'examples'), { recursive: true });
          await writeFile(path.join(cwd, 'examples/hello.json'), await readFile(HELLO));
          return cwd;
        };
        const env = { ...process.env, FRAMEWRIGHT_API_KEY: readmeAccount.key };
        const local = (code: string) => code.replaceAll('http://localhost:8080', served.base);

        // '@framewright/client' is clients/typescript of this repository.
        const tsDir = await workDir('readme-ts');
        const client = path.join(ROOT, 'clients/typescript/src/index.ts');
        const program = local(block('ts')).replace(`'@framewright/client'`, JSON.stringify(client));
        await writeFile(path.join(tsDir, 'readme.mts'), program);
        await run(process.execPath, ['--import', import.meta.resolve('tsx'), 'readme.mts'], { cwd: tsDir, env });
        await assertMp4(path.join(tsDir, 'hello.mp4'), null);

        const pyDir = await workDir('readme-py');
        await run(PYTHON, ['-c', local(block('python'))], {
          cwd: pyDir,
          env: {
            ...env,
            PYTHONPATH: path.join(ROOT, 'clients/python/framewright-client'),
            PYTHONDONTWRITEBYTECODE: '1',
          },
        });
        await assertMp4(path.join(pyDir, 'hello.mp4'), null);
      }),
    ]);
  });
});
