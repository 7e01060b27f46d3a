import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { validateMovie } from '../../movie/index.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameRgb, maxBrightness } from './media.ts';

// Subtitles `from`: an audio element's sound transcribed by a local server speaking OpenAI's
// transcription protocol (POST /v1/audio/transcriptions, multipart), whose word times drive the captions.
const dir = mkdtempSync(join(tmpdir(), 'fw-transcribe-'));
const FPS = 25;

/** 2 s of a 440 Hz tone, 16-bit mono 48 kHz WAV: the audio element's source. */
function toneWav(): Buffer {
  const rate = 48_000;
  const n = rate * 2;
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

interface Seen {
  auth: string | undefined;
  fields: Record<string, string[]>;
  file: { name: string; type: string; bytes: Buffer };
}
const WORDS = [
  { word: 'a', start: 0.3, end: 0.5 },
  { word: 'wonderful', start: 1.2, end: 1.6 },
];
const GOOD = { task: 'transcribe', language: 'english', duration: 1.8, text: 'a wonderful', words: WORDS };
let seen: Seen[] = [];
/** What the fake answers: a status and a JSON body. */
let answer: { status: number; body: unknown } = { status: 200, body: GOOD };
/** Forgets the requests seen and answers `next` from now on. */
function reset(next: { status: number; body: unknown } = { status: 200, body: GOOD }): void {
  seen = [];
  answer = next;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

let server: Server;
let base: string;
before(async () => {
  const wav = toneWav();
  server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/talk.wav')
      return void res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav);
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return void res.writeHead(404).end();
    const body = await readBody(req);
    const form = await new Response(body, {
      headers: { 'content-type': String(req.headers['content-type']) },
    }).formData();
    const fields: Record<string, string[]> = {};
    let file: Seen['file'] | undefined;
    for (const [k, v] of form.entries()) {
      if (typeof v === 'string') fields[k] = [...(fields[k] ?? []), v];
      else file = { name: v.name, type: v.type, bytes: Buffer.from(await v.arrayBuffer()) };
    }
    seen.push({ auth: req.headers.authorization, fields, file: file! });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const config = (): WorkerConfig => ({
  ffmpegPath: 'ffmpeg',
  allowPrivateUrls: true,
  env: process.env,
  transcribeBaseUrl: `${base}/v1`,
  transcribeModel: 'whisper-large-v3',
});

/** The audio plays from 0.5 s, trimmed by 0.2 s: a word at 0.3 s of the sent sound is at 0.8 s (frame 20). */
const movie = (subtitles: Record<string, unknown> = {}) => {
  const r = validateMovie({
    schema: 'v1',
    width: 320,
    height: 180,
    fps: FPS,
    scenes: [
      {
        id: 's',
        duration: 3,
        background: '#000000',
        elements: [
          { id: 'talk', type: 'audio', src: `${base}/talk.wav`, start: 0.5, trimStart: 0.2 },
          {
            id: 'cc',
            type: 'subtitles',
            from: 'talk',
            fontSize: 40,
            color: '#ffffff',
            style: 'lines',
            wordsPerLine: 1,
            ...subtitles,
          },
        ],
      },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/** The width of the ink in the caption area (the lower half): 0 when no caption is drawn. */
async function inkWidth(file: string, n: number): Promise<number> {
  const rgb = await frameRgb(file, n);
  let x0 = 320;
  let x1 = -1;
  for (let x = 0; x < 320; x++) {
    if (maxBrightness(rgb, 320, x, 90, x + 1, 180) > 150) {
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
    }
  }
  return x1 < 0 ? 0 : x1 - x0 + 1;
}

describe('subtitles from: an audio element transcribed', () => {
  const out = join(dir, 'from.mp4');
  let sent: Seen[] = [];
  before(async () => {
    reset();
    await renderMovie({ movie: movie({ language: 'en' }), output: out, config: config() });
    sent = seen;
  });

  it('sends the element’s sound as played (trimmed, 16 kHz mono WAV) with the model, verbose_json and word granularity', () => {
    assert.equal(sent.length, 1);
    const s = sent[0]!;
    assert.deepEqual(s.fields.model, ['whisper-large-v3']);
    assert.deepEqual(s.fields.response_format, ['verbose_json']);
    assert.deepEqual(s.fields['timestamp_granularities[]'], ['word']);
    assert.deepEqual(s.fields.language, ['en']);
    assert.equal(s.file.name, 'audio.wav');
    assert.equal(s.file.bytes.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(s.file.bytes.readUInt32LE(24), 16_000);
    assert.equal(s.file.bytes.readUInt16LE(22), 1);
    // 2 s of source less 0.2 s trimmed: 1.8 s of 16-bit samples.
    const seconds = s.file.bytes.readUInt32LE(40) / 2 / 16_000;
    assert.ok(Math.abs(seconds - 1.8) < 0.01, `${seconds} s sent`);
  });

  it('shows each returned word from its time on the movie timeline, to the frame', async () => {
    // "a" at 0.5 + 0.3 = 0.8 s (frame 20), held 0.6 s past its end (0.5 + 0.5 = 1.0 s): to 1.6 s
    // (frame 40, excluded); "wonderful" at 0.5 + 1.2 = 1.7 s (frame 42.5: first drawn on 43).
    assert.equal(await inkWidth(out, 19), 0, 'frame 19: nothing yet');
    const a = await inkWidth(out, 20);
    assert.ok(a > 0, 'frame 20: "a"');
    assert.equal(await inkWidth(out, 39), a, 'frame 39: still "a"');
    assert.equal(await inkWidth(out, 40), 0, 'frame 40: "a" is over');
    assert.equal(await inkWidth(out, 42), 0, 'frame 42: "wonderful" not yet');
    const wonderful = await inkWidth(out, 43);
    assert.ok(wonderful > a * 3, `frame 43: "wonderful" (${wonderful} px) is much wider than "a" (${a} px)`);
  });

  it('without language, none is sent: the server detects it', async () => {
    reset();
    await renderMovie({ movie: movie(), output: join(dir, 'detect.mp4'), config: config() });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.fields.language, undefined);
  });
});

describe('subtitles from: the soundtrack', () => {
  const out = join(dir, 'soundtrack.mp4');
  let sent: Seen[] = [];
  before(async () => {
    reset();
    const r = validateMovie({
      schema: 'v1',
      width: 320,
      height: 180,
      fps: FPS,
      soundtrack: { src: `${base}/talk.wav`, trimStart: 0.2 },
      scenes: [
        {
          id: 's',
          duration: 3,
          background: '#000000',
          elements: [
            { id: 'cc', type: 'subtitles', from: 'soundtrack', fontSize: 40, style: 'lines', wordsPerLine: 1 },
          ],
        },
      ],
    });
    if (!r.ok) throw new Error(JSON.stringify(r.findings));
    await renderMovie({ movie: r.value, output: out, config: config() });
    sent = seen;
  });

  it('transcribes one pass of it (1.8 s after the trim) and repeats its words as it loops', async () => {
    assert.equal(sent.length, 1);
    const seconds = sent[0]!.file.bytes.readUInt32LE(40) / 2 / 16_000;
    assert.ok(Math.abs(seconds - 1.8) < 0.01, `${seconds} s sent`);
    // "a" at 0.3 s (frame 7.5: first drawn on 8); "wonderful" at 1.2 s (frame 30) until the loop
    // brings "a" back at 1.8 + 0.3 = 2.1 s (frame 52.5: 53).
    assert.equal(await inkWidth(out, 7), 0, 'frame 7: nothing yet');
    const a = await inkWidth(out, 8);
    assert.ok(a > 0, 'frame 8: "a"');
    const wonderful = await inkWidth(out, 30);
    assert.ok(wonderful > a * 3, `frame 30: "wonderful" (${wonderful} px) vs "a" (${a} px)`);
    assert.equal(await inkWidth(out, 52), wonderful, 'frame 52: still "wonderful"');
    assert.equal(await inkWidth(out, 53), a, 'frame 53: "a" again, the second pass');
  });
});

describe('subtitles from: failures', () => {
  const fails = async (cfg: WorkerConfig, message: RegExp) => {
    await assert.rejects(renderMovie({ movie: movie(), output: join(dir, 'bad.mp4'), config: cfg }), (err: unknown) => {
      assert.ok(err instanceof AppError, String(err));
      assert.equal(err.code, 'TRANSCRIPTION_FAILED');
      assert.equal(err.path, 'scenes[0].elements[1].from');
      assert.match(err.message, message);
      return true;
    });
  };
  it('an endpoint that answers an error is TRANSCRIPTION_FAILED at from', async () => {
    reset({ status: 400, body: { error: { message: 'model not loaded', type: 'invalid_request_error' } } });
    await fails(config(), /model not loaded/);
  });
  it('an answer without word timestamps is TRANSCRIPTION_FAILED', async () => {
    reset({ status: 200, body: { text: 'a wonderful' } });
    await fails(config(), /without word timestamps/);
  });
  it('no endpoint configured is TRANSCRIPTION_FAILED naming the settings, and nothing is sent', async () => {
    reset();
    const { transcribeBaseUrl: _, ...none } = config();
    await fails(none, /TRANSCRIBE_BASE_URL/);
    assert.equal(seen.length, 0);
  });
});

describe('subtitles from: validation', () => {
  const findings = (elements: unknown[]) => {
    const r = validateMovie({ schema: 'v1', width: 320, height: 180, scenes: [{ id: 's', duration: 2, elements }] });
    return r.ok ? [] : r.findings.map((f) => [f.code, f.path]);
  };
  it('from must name an audio or video element of the scene', () => {
    assert.deepEqual(
      findings([
        { id: 't', type: 'text', text: 'hi' },
        { id: 'cc', type: 'subtitles', from: 't' },
      ]),
      [['VALIDATION_ERROR', 'scenes[0].elements[1].from']],
    );
    assert.deepEqual(findings([{ id: 'cc', type: 'subtitles', from: 'nothing' }]), [
      ['VALIDATION_ERROR', 'scenes[0].elements[0].from'],
    ]);
  });
  it('from "soundtrack" needs a soundtrack', () => {
    assert.deepEqual(findings([{ id: 'cc', type: 'subtitles', from: 'soundtrack' }]), [
      ['VALIDATION_ERROR', 'scenes[0].elements[0].from'],
    ]);
  });
  it('language needs from; from and src exclude each other', () => {
    assert.deepEqual(
      findings([
        { id: 'a', type: 'audio', src: 'https://example.com/a.mp3' },
        { id: 'cc', type: 'subtitles', src: 'https://example.com/a.srt', language: 'en' },
      ]),
      [['VALIDATION_ERROR', 'scenes[0].elements[1].language']],
    );
    assert.deepEqual(
      findings([
        { id: 'a', type: 'audio', src: 'https://example.com/a.mp3' },
        { id: 'cc', type: 'subtitles', src: 'https://example.com/a.srt', from: 'a' },
      ]),
      [['VALIDATION_ERROR', 'scenes[0].elements[1].from']],
    );
  });
});
