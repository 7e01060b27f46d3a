// POST /v1/previews, its files, preview tokens and CORS, against both databases: what a preview
// prepares (the plan and its files, byte-exact sizes, the mixed sound), that it is free and cached,
// the findings a bad request answers (code and path), who may call what with a preview token, the
// rate limit of fresh preparations, and the CORS headers only the preview routes get.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PreviewStore } from '../../api/previews/preview-store.ts';
import { countRenders } from '../../store/renders-repo.ts';
import { backends, client, eachBackend, newAccount, startApp, testConfig } from './helpers.ts';

type Json = Record<string, unknown>;
interface Preview {
  id: string;
  width: number;
  height: number;
  fps: number;
  duration: number;
  total_frames: number;
  cached: boolean;
  files_url: string;
  sound: string | null;
  expires_at: string;
  plan: { layers: { texture: { file: string; width: number; height: number } }[] };
}

/** Small and quick to prepare: 160x90, a text and a shape, one second, no sound. */
function tinyMovie(text = 'Hi'): Json {
  return {
    schema: 'v1',
    width: 160,
    height: 90,
    fps: 10,
    scenes: [
      {
        id: 's',
        duration: 1,
        background: '#102030',
        elements: [
          { id: 't', type: 'text', text, fontSize: 20, color: '#ffffff' },
          { id: 'r', type: 'shape', shape: 'rectangle', width: 20, height: 20, fill: '#ff0000' },
        ],
      },
    ],
  };
}

const ORIGIN = 'https://page.example';

test('live previews: POST /v1/previews, its files, preview tokens, CORS', { timeout: 300_000 }, async (t) => {
  await eachBackend(t, async (t, db) => {
    let now = new Date();
    const app = await startApp(db, {
      config: testConfig({ corsAllowedOrigins: [ORIGIN], previewsPerMinute: 4 }),
      now: () => now,
    });
    t.after(() => app.close());
    const files = (p: Preview, name: string) =>
      app.inject({ method: 'GET', url: `${new URL(p.files_url).pathname}${encodeURIComponent(name)}` });

    await t.test('a document prepared: its plan, its files, free and cached', async () => {
      const acc = await newAccount(db, { credits: 10 });
      const api = client(app, acc.key);
      const before = (await api('GET', '/v1/usage')).json<{ credits: { balance: number } }>();
      const res = await api('POST', '/v1/previews', { movie: tinyMovie() });
      assert.equal(res.statusCode, 200, res.body);
      const p = res.json<Preview>();
      assert.match(p.id, /^prv_[0-9a-z]{26}$/);
      assert.deepEqual([p.width, p.height, p.fps, p.total_frames, p.cached], [160, 90, 10, 10, false]);
      assert.equal(p.sound, null, 'a silent movie has no sound file');
      assert.ok(p.files_url.startsWith(`http://api.test/v1/previews/${p.id}/files/`));
      assert.ok(p.plan.layers.length >= 2);
      for (const l of p.plan.layers) {
        // Names, not paths of the server.
        assert.match(l.texture.file, /^[A-Za-z0-9._-]+$/);
        const got = await files(p, l.texture.file);
        assert.equal(got.statusCode, 200, l.texture.file);
        assert.equal(got.rawPayload.length, l.texture.width * l.texture.height * 4);
      }
      // The red square's texture has red texels: the files are the rasters, not placeholders.
      const square = p.plan.layers.find((l) => l.texture.width === 20 && l.texture.height === 20)!;
      const texels = (await files(p, square.texture.file)).rawPayload;
      assert.deepEqual([...texels.subarray(0, 4)], [255, 0, 0, 255]);

      const again = (await api('POST', '/v1/previews', { movie: tinyMovie() })).json<Preview>();
      assert.equal(again.id, p.id);
      assert.equal(again.cached, true);
      assert.equal(await countRenders(db.sql, acc.accountId), 0, 'no render');
      const after = (await api('GET', '/v1/usage')).json<{ credits: { balance: number } }>();
      assert.deepEqual(after.credits, before.credits, 'no credit reserved or charged');
    });

    await t.test('a movie with sound: the mix as AAC in MP4', async () => {
      const acc = await newAccount(db);
      const movie = tinyMovie();
      (movie.scenes as Json[])[0]!.elements = [
        ...((movie.scenes as Json[])[0]!.elements as Json[]),
        { id: 'v', type: 'voice', text: 'Hello there, friend.' },
        { id: 'c', type: 'subtitles', fontSize: 12 },
      ];
      // Long enough for the voice (about 1.3 s).
      (movie.scenes as Json[])[0]!.duration = 3;
      const res = await client(app, acc.key)('POST', '/v1/previews', { movie });
      assert.equal(res.statusCode, 200, res.body);
      const p = res.json<Preview>();
      assert.equal(p.sound, 'sound.m4a');
      const sound = await files(p, 'sound.m4a');
      assert.equal(sound.statusCode, 200);
      assert.equal(sound.headers['content-type'], 'audio/mp4');
      assert.equal(sound.rawPayload.subarray(4, 8).toString('latin1'), 'ftyp');
      // The voice's word timings, as the captions show them: in order, within the movie.
      const words = res.json<{ words: Record<string, { text: string; start: number; end: number }[]> }>().words;
      const captions = words['scenes[0].elements[3]'] ?? [];
      assert.deepEqual(
        captions.map((w) => w.text.replace(/[^a-z]/gi, '').toLowerCase()),
        ['hello', 'there', 'friend'],
      );
      for (const [i, w] of captions.entries()) {
        assert.ok(w.start < w.end && w.end <= p.duration + 0.01, JSON.stringify(w));
        if (i > 0) assert.ok(w.start >= captions[i - 1]!.end - 1e-6, JSON.stringify(captions));
      }
    });

    await t.test('findings at their paths; one of movie and template_id', async () => {
      const acc = await newAccount(db);
      const api = client(app, acc.key);
      const bad = tinyMovie();
      (bad.scenes as Json[])[0]!.duration = -1;
      const res = await api('POST', '/v1/previews', { movie: bad });
      assert.equal(res.statusCode, 400);
      const err = res.json<{ error: { code: string; path: string } }>().error;
      assert.deepEqual([err.code, err.path], ['VALIDATION_ERROR', 'scenes[0].duration']);
      const both = await api('POST', '/v1/previews', { movie: tinyMovie(), template_id: 'tpl_x' });
      assert.equal(both.statusCode, 400);
      assert.equal(both.json<{ error: { path: string } }>().error.path, 'template_id');
      const neither = await api('POST', '/v1/previews', { variables: {} });
      assert.equal(neither.statusCode, 400);
      assert.equal(neither.json<{ error: { path: string } }>().error.path, 'movie');
      // Valid, but nothing to show: 422 PREVIEW_FAILED with the cause, never a 5xx.
      const blink = tinyMovie();
      (blink.scenes as Json[])[0]!.duration = 0.01;
      const empty = await api('POST', '/v1/previews', { movie: blink });
      assert.equal(empty.statusCode, 422, empty.body);
      const failed = empty.json<{ error: { code: string; message: string } }>().error;
      assert.equal(failed.code, 'PREVIEW_FAILED');
      assert.match(failed.message, /no frames/);
      const unknown = await api('POST', '/v1/previews', { template_id: 'tpl_01jq0000000000000000000000' });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json<{ error: { path: string } }>().error.path, 'template_id');
    });

    await t.test("a template with variables; another account's template is not there", async () => {
      const owner = await newAccount(db);
      const other = await newAccount(db);
      const body = tinyMovie('Hi {{name}}');
      body.variables = { name: { type: 'string', default: 'world' }, seconds: { type: 'number', default: 1 } };
      (body.scenes as Json[])[0]!.duration = '{{seconds}}';
      const made = await client(app, owner.key)('POST', '/v1/templates', { name: 'tiny', body });
      assert.equal(made.statusCode, 201, made.body);
      const id = made.json<{ id: string }>().id;
      const ok = await client(app, owner.key)('POST', '/v1/previews', { template_id: id, variables: { name: 'Ada' } });
      assert.equal(ok.statusCode, 200, ok.body);
      const wrongType = await client(app, owner.key)('POST', '/v1/previews', {
        template_id: id,
        variables: { seconds: 'abc' },
      });
      assert.equal(wrongType.statusCode, 400);
      const mismatch = wrongType.json<{ error: { code: string; path: string } }>().error;
      assert.deepEqual([mismatch.code, mismatch.path], ['VARIABLE_TYPE_MISMATCH', 'scenes[0].duration']);
      const theirs = await client(app, other.key)('POST', '/v1/previews', { template_id: id });
      assert.equal(theirs.statusCode, 404);
    });

    await t.test('a preview token previews, and does nothing else', async () => {
      const acc = await newAccount(db);
      const made = await client(app, acc.key)('POST', '/v1/preview-tokens');
      assert.equal(made.statusCode, 201);
      const { token, expires_at } = made.json<{ token: string; expires_at: string }>();
      assert.match(token, /^fwpt_key_[0-9a-z]{26}\.[0-9]{10}\.[A-Za-z0-9_-]{43}$/);
      assert.equal(new Date(expires_at).getTime() - Math.floor(now.getTime() / 1000) * 1000, 900_000);
      const viaToken = client(app, token);
      assert.equal((await viaToken('POST', '/v1/previews', { movie: tinyMovie('token') })).statusCode, 200);
      for (const [method, url] of [
        ['GET', '/v1/renders'],
        ['GET', '/v1/usage'],
        ['POST', '/v1/preview-tokens'],
        ['GET', '/v1/keys'],
      ] as const) {
        const res = await viaToken(method, url);
        assert.equal(res.statusCode, 401, `${method} ${url}`);
      }
      // Tampered, expired, or its key revoked: refused like any unknown key.
      const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      assert.equal((await client(app, tampered)('POST', '/v1/previews', { movie: tinyMovie() })).statusCode, 401);
      const later = now;
      now = new Date(later.getTime() + 901_000);
      assert.equal((await viaToken('POST', '/v1/previews', { movie: tinyMovie('token') })).statusCode, 401);
      now = later;
      const revoked = await client(app, acc.key)('DELETE', `/v1/keys/${acc.keyId}`);
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.equal((await viaToken('POST', '/v1/previews', { movie: tinyMovie('token') })).statusCode, 401);
    });

    await t.test('fresh preparations are limited per account; the cache is not', async () => {
      const acc = await newAccount(db);
      const api = client(app, acc.key);
      for (let i = 0; i < 4; i++) {
        const res = await api('POST', '/v1/previews', { movie: tinyMovie(`n${i}`) });
        assert.equal(res.statusCode, 200, res.body);
      }
      const refused = await api('POST', '/v1/previews', { movie: tinyMovie('one more') });
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json<{ error: { code: string } }>().error.code, 'RATE_LIMITED');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      const cached = await api('POST', '/v1/previews', { movie: tinyMovie('n0') });
      assert.equal(cached.statusCode, 200);
      assert.equal(cached.json<Preview>().cached, true);
      // Counted by outcome (this app's registry: the earlier cases' previews too).
      const counted = Object.fromEntries(
        (await app.metrics.previews.get()).values.map((v) => [String(v.labels.outcome), v.value]),
      );
      assert.ok(
        (counted.refused ?? 0) >= 1 && (counted.cached ?? 0) >= 2 && (counted.prepared ?? 0) >= 5,
        JSON.stringify(counted),
      );
      assert.equal(
        (await app.metrics.previewSeconds.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value,
        counted.prepared,
      );
    });

    await t.test("files: only the preview's names; unknown ids and names are 404", async () => {
      const acc = await newAccount(db);
      const p = (await client(app, acc.key)('POST', '/v1/previews', { movie: tinyMovie('files') })).json<Preview>();
      for (const name of ['..', 'tex-0.rgba', 'sound.m4a', 'clip-0.src']) {
        const res = await app.inject({ method: 'GET', url: `/v1/previews/${p.id}/files/${name}` });
        assert.equal(res.statusCode, 404, name);
      }
      // A name with a slash is no name at all: refused at the parameter.
      const traversal = await app.inject({ method: 'GET', url: `/v1/previews/${p.id}/files/%2e%2e%2fetc%2fpasswd` });
      assert.equal(traversal.statusCode, 400);
      assert.equal(traversal.json<{ error: { path: string } }>().error.path, 'name');
      const other = await app.inject({
        method: 'GET',
        url: `/v1/previews/prv_01jq0000000000000000000000/files/${p.plan.layers[0]!.texture.file}`,
      });
      assert.equal(other.statusCode, 404);
    });

    await t.test('CORS: the preview routes, for the allowed origins only', async () => {
      const acc = await newAccount(db);
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/v1/previews',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], ORIGIN);
      assert.match(String(preflight.headers['access-control-allow-headers']), /authorization/);
      const res = await client(app, acc.key)('POST', '/v1/previews', { movie: tinyMovie('cors') }, { origin: ORIGIN });
      assert.equal(res.headers['access-control-allow-origin'], ORIGIN);
      const p = res.json<Preview>();
      const file = await app.inject({
        method: 'GET',
        url: `/v1/previews/${p.id}/files/${p.plan.layers[0]!.texture.file}`,
        headers: { origin: ORIGIN },
      });
      assert.equal(file.headers['access-control-allow-origin'], ORIGIN);
      // Another origin, or another route: no CORS header at all.
      const stranger = await client(app, acc.key)(
        'POST',
        '/v1/previews',
        { movie: tinyMovie('cors') },
        { origin: 'https://evil.example' },
      );
      assert.equal(stranger.headers['access-control-allow-origin'], undefined);
      const renders = await client(app, acc.key)('GET', '/v1/renders', undefined, { origin: ORIGIN });
      assert.equal(renders.headers['access-control-allow-origin'], undefined);
    });
  });
});

test('a preview worker never loads the drawing code (the API image has no EGL)', { timeout: 120_000 }, async (t) => {
  const [b] = backends().slice(-1);
  const db = await b!.open();
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-previews-'));
  const refuse = fileURLToPath(new URL('./refuse-packages.mjs', import.meta.url));
  const previews = new PreviewStore({
    dir,
    // headless-gl (and three.js) refused in the worker process that prepares: an import throws.
    workerEnv: { ...process.env, NODE_OPTIONS: `--import ${refuse}`, FW_REFUSE_PACKAGES: 'gl,three' },
    ttlMs: 60_000,
    maxEntries: 4,
    maxBytes: 1024 ** 3,
  });
  const app = await startApp(db, { previews });
  t.after(async () => {
    await app.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
  const acc = await newAccount(db);
  const res = await client(app, acc.key)('POST', '/v1/previews', { movie: tinyMovie('no gl') });
  assert.equal(res.statusCode, 200, res.body);
});

test('previews are kept within their byte budget, least recently asked for first', { timeout: 120_000 }, async (t) => {
  const [b] = backends().slice(-1);
  const db = await b!.open();
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-previews-'));
  // Room for one tiny preview's textures (a few KiB), not two.
  const previews = new PreviewStore({ dir, workerEnv: process.env, ttlMs: 60_000, maxEntries: 10, maxBytes: 20_000 });
  const app = await startApp(db, { previews });
  t.after(async () => {
    await app.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
  const api = client(app, (await newAccount(db)).key);
  const first = (await api('POST', '/v1/previews', { movie: tinyMovie('first') })).json<Preview>();
  const name = first.plan.layers[0]!.texture.file;
  const url = (p: Preview) => `/v1/previews/${p.id}/files/${name}`;
  assert.equal((await app.inject({ method: 'GET', url: url(first) })).statusCode, 200);
  const second = (await api('POST', '/v1/previews', { movie: tinyMovie('second, a longer text') })).json<Preview>();
  assert.equal((await app.inject({ method: 'GET', url: url(second) })).statusCode, 200);
  assert.equal((await app.inject({ method: 'GET', url: url(first) })).statusCode, 404, 'the older one went');
  // Asked for again: prepared anew (it was evicted), not answered from a stale cache.
  const again = (await api('POST', '/v1/previews', { movie: tinyMovie('first') })).json<Preview>();
  assert.equal(again.cached, false);
  // Another process on the same DATA_DIR prepares beside it, and removes nothing of this one's.
  const neighbour = new PreviewStore({ dir, workerEnv: process.env, ttlMs: 60_000, maxEntries: 10, maxBytes: 20_000 });
  try {
    await neighbour.prepare('acc_neighbour', tinyMovie('next door'), false);
    assert.equal((await app.inject({ method: 'GET', url: url(again) })).statusCode, 200);
  } finally {
    await neighbour.close();
  }
  assert.equal((await app.inject({ method: 'GET', url: url(again) })).statusCode, 200, 'closing it neither');
});
