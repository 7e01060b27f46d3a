import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { validateMovie } from '../../movie/index.ts';
import { chooseCodec } from '../../worker/encode/encoder-probe.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { silentMovie, solidPngBytes } from './fixtures.ts';
import { probe } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-fail-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

const imageMovie = (src: string) =>
  valid({
    schema: 'v1',
    width: 160,
    height: 90,
    fps: 10,
    scenes: [{ id: 's', duration: 1, elements: [{ id: 'img', type: 'image', src, width: 32, height: 32 }] }],
  });

const scratch = mkdtempSync(join(dir, 'scratch-'));
/** Scratch directories of renders in this file that still exist (each render must remove its own). */
const leftovers = () => readdirSync(scratch).length;

describe('asset failures (images served by a local HTTP server)', () => {
  let server: Server;
  let base: string;
  let png: Buffer;
  before(async () => {
    png = await solidPngBytes('#00ff00', 16);
    server = createServer((req, res) => {
      if (req.url === '/ok.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/corrupt.png') res.writeHead(200, { 'content-type': 'image/png' }).end('not a png at all');
      else if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      else if (req.url?.startsWith('/hop')) {
        const n = Number(req.url.split('/')[2] ?? 0);
        res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : '/ok.png' }).end();
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const open: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
  const closed: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: false, env: process.env };

  const cases: [string, () => string, WorkerConfig, 'ASSET_UNREACHABLE' | 'ASSET_INVALID', RegExp][] = [
    ['a 404', () => `${base}/missing.png`, open, 'ASSET_UNREACHABLE', /HTTP 404/],
    ['a closed port', () => 'http://127.0.0.1:9/x.png', open, 'ASSET_UNREACHABLE', /failed/],
    ['a private address when not allowed', () => `${base}/ok.png`, closed, 'ASSET_UNREACHABLE', /private or loopback/],
    ['too many redirects', () => `${base}/hop/3`, open, 'ASSET_UNREACHABLE', /redirects/],
    ['bytes that are not an image', () => `${base}/corrupt.png`, open, 'ASSET_INVALID', /could not be decoded/],
    ['an HTML page', () => `${base}/page`, open, 'ASSET_INVALID', /content type text\/html/],
    [
      'a corrupt data: URI',
      () => `data:image/png;base64,${Buffer.from('garbage').toString('base64')}`,
      open,
      'ASSET_INVALID',
      /decoded/,
    ],
  ];
  for (const [name, url, config, code, message] of cases) {
    it(`${name} -> ${code} at the element's src`, async () => {
      const output = join(dir, 'never.mp4');
      await assert.rejects(
        renderMovie({ movie: imageMovie(url()), output, config, tmpRoot: scratch }),
        (err: unknown) => {
          assert.ok(err instanceof AppError, String(err));
          assert.equal(err.code, code);
          assert.equal(err.path, 'scenes[0].elements[0].src');
          assert.match(err.message, message);
          return true;
        },
      );
      assert.equal(existsSync(output), false);
      assert.equal(leftovers(), 0, 'temporary directory removed');
    });
  }

  it('follows up to three redirects', async () => {
    const output = join(dir, 'redirected.mp4');
    await renderMovie({ movie: imageMovie(`${base}/hop/2`), output, config: open });
    assert.equal((await probe(output)).streams[0]?.width, 160);
  });
});

describe('process failures', () => {
  it('a crashed ffmpeg fails the render with its stderr, promptly', async () => {
    const fake = join(dir, 'fake-ffmpeg.sh');
    writeFileSync(fake, '#!/bin/sh\necho "encoder exploded: simulated crash" >&2\nexit 3\n');
    chmodSync(fake, 0o755);
    const output = join(dir, 'crash.mp4');
    const started = Date.now();
    await assert.rejects(
      renderMovie({
        movie: valid(await silentMovie()),
        output,
        config: { ffmpegPath: fake, allowPrivateUrls: true, env: process.env },
      }),
      (err: unknown) => err instanceof AppError && err.code === 'RENDER_FAILED' && /encoder exploded/.test(err.message),
    );
    assert.ok(Date.now() - started < 30_000);
    assert.equal(existsSync(output), false);
  });

  it('honours an AbortSignal', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by test');
    const run = renderMovie({
      movie: valid(await silentMovie()),
      output: join(dir, 'aborted.mp4'),
      config: { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env },
      signal: controller.signal,
      tmpRoot: scratch,
      onProgress: (e) => {
        if (e.phase === 'rendering') controller.abort(reason);
      },
    });
    await assert.rejects(run, (err) => err === reason);
    assert.equal(leftovers(), 0);
  });
});

describe('encoder choice', () => {
  it('uses h264_nvenc when a test encode succeeds', async (t) => {
    const choice = await chooseCodec('ffmpeg');
    if (choice.codec !== 'h264_nvenc') {
      t.skip(`no working NVENC here: ${choice.reason}`);
      return;
    }
    const output = join(dir, 'nvenc.mp4');
    const r = await renderMovie({
      movie: valid(await silentMovie()),
      output,
      config: { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env },
    });
    assert.equal(r.codec, 'h264_nvenc');
    assert.equal((await probe(output)).streams[0]?.codec_name, 'h264');
  });
});
