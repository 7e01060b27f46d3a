import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { VOICE_TAIL_SEC, validateMovie } from '../../movie/index.ts';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import { type PrepareOptions, prepare } from '../../worker/prepare/prepare.ts';
import { EspeakClient } from '../../worker/prepare/speech/espeak.ts';
import { type Clip, pausedClip } from './speech-clips.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-prepare-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fontDir = join(dirname(createRequire(import.meta.url).resolve('@fontsource/lato/package.json')), 'files');

const movie = (elements: unknown[]) => {
  const r = validateMovie({
    schema: 'v1',
    width: 320,
    height: 180,
    scenes: [
      { id: 's', duration: elements.some((e) => (e as { type: string }).type === 'voice') ? 'voice' : 1, elements },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/**
 * A local server that speaks OpenAI's speech endpoint (POST /v1/audio/speech, pcm: s16le 24 kHz),
 * the paid vendor's test double, plus static font files.
 */
let server: Server;
let base: string;
let speechRequests: { voice: string; input: string; response_format: string; auth: string }[] = [];
/** What the fake answers: another voice than the guide's, with pauses the guide does not make. */
const OPENAI_PARTS = ['Hello from a paid voice.', 'It pauses, then speaks again.'];
let openaiClip: Clip;
before(async () => {
  const espeak = new EspeakClient();
  openaiClip = await pausedClip(espeak, dir, 'en-gb', OPENAI_PARTS, [0.5, 1.2]);
  espeak.close();
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/v1/audio/speech') {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const j = JSON.parse(body);
        speechRequests.push({ ...j, auth: req.headers.authorization ?? '' });
        res.writeHead(200, { 'content-type': 'audio/pcm' }).end(Buffer.from(openaiClip.pcm.buffer));
      });
    } else if (req.url === '/lato.woff') {
      res
        .writeHead(200, { 'content-type': 'font/woff' })
        .end(readFileSync(join(fontDir, 'lato-latin-400-normal.woff')));
    } else if (req.url === '/lato.woff2') {
      res
        .writeHead(200, { 'content-type': 'font/woff2' })
        .end(readFileSync(join(fontDir, 'lato-latin-400-normal.woff2')));
    } else if (req.url === '/bogus.woff2') {
      // A font's signature, then nothing a font parser can read.
      res
        .writeHead(200, { 'content-type': 'font/woff2' })
        .end(Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(200, 7)]));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const opts = (m: PrepareOptions['movie'], speech: PrepareOptions['speech'] = {}): PrepareOptions => ({
  movie: m,
  format: movieOutputFormat(m),
  tmpDir: mkdtempSync(join(dir, 'p-')),
  draft: false,
  watermark: false,
  codec: 'libx264',
  fetchPolicy: { allowPrivate: true },
  speech,
});

describe('prepare: OpenAI voices (local server speaking the OpenAI protocol)', () => {
  const voiced = () =>
    movie([
      { id: 'v', type: 'voice', text: OPENAI_PARTS.join(' '), voiceId: 'openai-nova' },
      { id: 'c', type: 'subtitles' },
    ]);

  it('synthesises through the API as PCM and times the scene by the clip', async () => {
    speechRequests = [];
    const p = await prepare(opts(voiced(), { openaiApiKey: 'sk-test', openaiBaseUrl: `${base}/v1` }));
    assert.equal(speechRequests.length, 1);
    assert.deepEqual(
      [speechRequests[0]!.voice, speechRequests[0]!.input, speechRequests[0]!.response_format, speechRequests[0]!.auth],
      ['nova', OPENAI_PARTS.join(' '), 'pcm', 'Bearer sk-test'],
    );
    const clipSec = openaiClip.pcm.length / 24_000;
    assert.ok(Math.abs(p.timeline.durationSec - (clipSec + VOICE_TAIL_SEC)) < 1e-6);
    assert.ok(p.audio);
  });

  it('times the captions by forced alignment: every word within 100 ms of where the clip speaks it', async () => {
    const p = await prepare(opts(voiced(), { openaiApiKey: 'sk-test', openaiBaseUrl: `${base}/v1` }));
    const words = p.captions.get('scenes[0].elements[1]')!;
    assert.deepEqual(
      words.map((w) => w.text),
      OPENAI_PARTS.join(' ').split(' '),
    );
    words.forEach((w, i) => {
      const want = openaiClip.starts[i]!;
      assert.ok(Math.abs(w.startSec - want) <= 0.1, `${w.text}: ${w.startSec} vs ${want}`);
    });
  });

  it('without OPENAI_API_KEY is TTS_FAILED at the voice element', async () => {
    await assert.rejects(prepare(opts(voiced())), (err: unknown) => {
      assert.ok(err instanceof AppError);
      assert.equal(err.code, 'TTS_FAILED');
      assert.equal(err.path, 'scenes[0].elements[0]');
      assert.match(err.message, /OPENAI_API_KEY/);
      return true;
    });
  });
});

describe('prepare: fonts by URL', () => {
  it('uses a WOFF font fetched from a URL', async () => {
    const p = await prepare(opts(movie([{ id: 't', type: 'text', text: 'Web font', font: `${base}/lato.woff` }])));
    const layer = p.plan.layers[0]!;
    assert.ok(layer.width > 100 && layer.height > 40, `${layer.width}x${layer.height}`);
  });

  it('uses a WOFF2 font fetched from a URL, the same size as its WOFF twin', async () => {
    const woff2 = await prepare(opts(movie([{ id: 't', type: 'text', text: 'Web font', font: `${base}/lato.woff2` }])));
    const woff = await prepare(opts(movie([{ id: 't', type: 'text', text: 'Web font', font: `${base}/lato.woff` }])));
    const [a, b] = [woff2.plan.layers[0]!, woff.plan.layers[0]!];
    assert.deepEqual([a.width, a.height], [b.width, b.height]);
  });

  it('refuses a file that is not a font with ASSET_INVALID at the font field', async () => {
    await assert.rejects(
      prepare(opts(movie([{ id: 't', type: 'text', text: 'x', font: `${base}/bogus.woff2` }]))),
      (err: unknown) =>
        err instanceof AppError && err.code === 'ASSET_INVALID' && err.path === 'scenes[0].elements[0].font',
    );
  });

  it('an unreachable font is ASSET_UNREACHABLE', async () => {
    await assert.rejects(
      prepare(opts(movie([{ id: 't', type: 'text', text: 'x', font: `${base}/nope.woff` }]))),
      (err: unknown) => err instanceof AppError && err.code === 'ASSET_UNREACHABLE',
    );
  });
});

describe('prepare: layout', () => {
  it('wraps long text at maxWidth and centres the block', async () => {
    const p = await prepare(
      opts(movie([{ id: 't', type: 'text', text: 'one two three four five six', fontSize: 20, maxWidth: 100 }])),
    );
    const l = p.plan.layers[0]!;
    assert.ok(l.width <= 100, `width ${l.width}`);
    assert.ok(l.height >= 3 * 20, `wrapped into several lines: ${l.height}`);
    assert.equal(l.x, Math.round((320 - l.width) / 2));
  });

  it('fits images: contain keeps the aspect inside the box, cover and fill take the box', async () => {
    const sharp = (await import('sharp')).default;
    const wide = await sharp({ create: { width: 40, height: 20, channels: 4, background: '#fff' } })
      .png()
      .toBuffer();
    const src = `data:image/png;base64,${wide.toString('base64')}`;
    const p = await prepare(
      opts(
        movie(
          (['contain', 'cover', 'fill'] as const).map((fit, i) => ({
            id: `i${i}`,
            type: 'image',
            src,
            width: 100,
            height: 100,
            fit,
            position: { x: 10, y: 10 },
          })),
        ),
      ),
    );
    const [contain, cover, fill] = p.plan.layers;
    assert.deepEqual([contain!.width, contain!.height, contain!.x, contain!.y], [100, 50, 10, 35]);
    assert.deepEqual([cover!.width, cover!.height], [100, 100]);
    assert.deepEqual([fill!.width, fill!.height], [100, 100]);
  });
});
