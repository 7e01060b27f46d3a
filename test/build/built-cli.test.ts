import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ffprobe, freePort, tinyMovie } from '../pipeline/harness.ts';
import { outputOf, stopServe, untilReady } from '../services/serve-process.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO, 'dist/bin/cli.js');
const REFUSE_DEV = fileURLToPath(new URL('./refuse-dev-packages.mjs', import.meta.url));

/** The environment of a process on a machine with the build and production packages only. */
function productionEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', ...extra };
  env.NODE_OPTIONS = `--import=${REFUSE_DEV}`;
  return env;
}

test('the build is current (scripts/test.sh builds it; run `make build` when running tests alone)', () => {
  const which = spawnSync(path.join(REPO, 'bin/framewright'), [], {
    env: { ...process.env, FRAMEWRIGHT_SHOW_FROM: '1' },
    encoding: 'utf8',
  });
  assert.equal(which.stdout.trim(), 'dist', 'bin/framewright runs the build when no source is newer');
});

test('the guard refuses development packages (the next test proves nothing without it)', () => {
  const probe = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('tsx/esm/api')"], {
    cwd: REPO,
    env: productionEnv({}),
    encoding: 'utf8',
  });
  assert.notEqual(probe.status, 0);
  assert.match(probe.stderr, /development package tsx loaded/);
});

test('the built CLI on bare Node: serve answers and a render completes', { timeout: 120_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-built-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // serve on its embedded defaults (PGlite, local disk), as `make run` starts it.
  const child = spawn(process.execPath, ['--enable-source-maps', CLI, 'serve'], {
    env: productionEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_BASE_URL: base }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const served = { child, log: outputOf(child) };
  t.after(() => stopServe(served));
  await untilReady(served, base, 60_000);
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  // The dashboard from the build's files (dist/dashboard/), with no bundler at run time.
  const bundle = await fetch(`${base}/dashboard/app.js`);
  assert.equal(bundle.status, 200);
  assert.equal(await bundle.text(), await readFile(path.join(REPO, 'dist/dashboard/app.js'), 'utf8'));
  assert.equal((await fetch(`${base}/dashboard`)).status, 200);

  const key = /API key \(shown once, store it now\): (\S+)/.exec(served.log())?.[1];
  assert.ok(key, `serve printed the first account's key:\n${served.log()}`);
  const auth = { authorization: `Bearer ${key}` };
  const created = await fetch(`${base}/v1/renders`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ movie: tinyMovie() }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };

  let render: { status: string; outputUrl: string | null; error: unknown } = {
    status: '',
    outputUrl: null,
    error: null,
  };
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    render = (await (await fetch(`${base}/v1/renders/${id}`, { headers: auth })).json()) as typeof render;
    if (render.status === 'done' || render.status === 'failed') break;
  }
  assert.equal(render.status, 'done', `${JSON.stringify(render)}\n${served.log().slice(-3000)}`);
  const video = await fetch(render.outputUrl as string);
  assert.equal(video.status, 200);
  const file = path.join(dataDir, 'out.mp4');
  await writeFile(file, Buffer.from(await video.arrayBuffer()));
  const probe = await ffprobe(file);
  assert.equal(probe.streams.find((s) => s.codec_type === 'video')?.codec_name, 'h264');
  assert.doesNotMatch(served.log(), /development package/);
  assert.equal(await stopServe(served), 0, served.log().slice(-3000));
});
