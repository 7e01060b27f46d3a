import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { validateMovie } from '../../movie/index.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameRgb, maxBrightness } from './media.ts';

// Captions from SRT and WebVTT files (subtitles.src), served over HTTP as an asset would be, and
// checked to the frame on the decoded video: 25 fps, so a cue at 1.000 s starts on frame 25.
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const dir = mkdtempSync(join(tmpdir(), 'fw-subtitle-file-'));

const FILES: Record<string, [string, string]> = {
  '/cues.srt': [
    'application/x-subrip',
    '1\r\n00:00:01,000 --> 00:00:02,000\r\n<b>HELLO</b>\r\n\r\n2\r\n00:00:02,400 --> 00:00:02,600\r\nTHERE\r\n',
  ],
  // Timed from the element's start (0.2 s): shown from 0.520 s (frame 13) to 1.480 s (frame 37).
  '/cues.vtt': [
    'text/vtt; charset=utf-8',
    'WEBVTT\n\nNOTE a comment\n\nintro\n00:00.320 --> 00:01.280 align:start\nHELLO\n',
  ],
  '/bad-time.srt': [
    'text/plain',
    '1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:0X,000 --> 00:00:04,000\nbroken\n',
  ],
  '/no-cues.srt': ['text/plain', 'just some words\nand more\n'],
};
let server: Server;
let base: string;
before(async () => {
  server = createServer((req, res) => {
    const f = FILES[req.url ?? ''];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f[0] }).end(f[1]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/** A 3-second black 320x180 movie at 25 fps whose only element is subtitles from `src` (no voice). */
const movie = (src: string, extra: Record<string, unknown> = {}) => ({
  schema: 'v1',
  width: 320,
  height: 180,
  fps: 25,
  scenes: [
    {
      id: 's',
      duration: 3,
      background: '#000000',
      elements: [{ id: 'cc', type: 'subtitles', src, fontSize: 40, color: '#ffffff', ...extra }],
    },
  ],
});

/** The brightest pixel of the caption area (the frame's lower half, where bottom-centre captions go). */
async function captionInk(file: string, frame: number): Promise<number> {
  return maxBrightness(await frameRgb(file, frame), 320, 0, 90, 320, 180);
}

async function assertShown(file: string, frames: Record<number, boolean>): Promise<void> {
  for (const [n, shown] of Object.entries(frames)) {
    const ink = await captionInk(file, Number(n));
    if (shown) assert.ok(ink > 200, `frame ${n}: caption expected, brightest ${ink}`);
    else assert.ok(ink < 40, `frame ${n}: no caption expected, brightest ${ink}`);
  }
}

describe('subtitles from an SRT file', () => {
  const out = join(dir, 'srt.mp4');
  before(async () => {
    await renderMovie({ movie: valid(movie(`${base}/cues.srt`)), output: out, config });
  });
  it('shows each cue from its start frame up to (not including) its end frame', async () => {
    // 1.000 -> 2.000 s: frames 25..49; 2.400 -> 2.600 s: frames 60..64.
    await assertShown(out, {
      0: false,
      24: false,
      25: true,
      49: true,
      50: false,
      59: false,
      60: true,
      64: true,
      65: false,
    });
  });
});

describe('subtitles from a WebVTT file', () => {
  const out = join(dir, 'vtt.mp4');
  before(async () => {
    await renderMovie({ movie: valid(movie(`${base}/cues.vtt`, { start: 0.2 })), output: out, config });
  });
  it("times cues from the element's start, to the frame", async () => {
    await assertShown(out, { 12: false, 13: true, 36: true, 37: false });
  });
});

describe('subtitles from a malformed file', () => {
  const cases: [string, () => string, RegExp][] = [
    [
      'a bad SRT timestamp',
      () => `${base}/bad-time.srt`,
      /SRT file is malformed at line 6: cue start timestamp `00:00:0X/,
    ],
    ['a file without a cue', () => `${base}/no-cues.srt`, /SRT file has no cue in its 3 line\(s\) from line 1/],
    [
      'a data: URI of a WebVTT file with a bad end time',
      () => `data:text/vtt;base64,${Buffer.from('WEBVTT\n\n00:01.000 --> 00:0x.000\nbad\n').toString('base64')}`,
      /WebVTT file is malformed at line 3: cue end timestamp `00:0x.000` is invalid/,
    ],
  ];
  for (const [name, src, message] of cases) {
    it(`fails the render with ASSET_INVALID at the src and the line: ${name}`, async () => {
      await assert.rejects(
        renderMovie({ movie: valid(movie(src())), output: join(dir, 'bad.mp4'), config }),
        (err: unknown) => {
          assert.ok(err instanceof AppError, String(err));
          assert.equal(err.code, 'ASSET_INVALID');
          assert.equal(err.path, 'scenes[0].elements[0].src');
          assert.match(err.message, message);
          return true;
        },
      );
    });
  }
});

describe('subtitles src: validation', () => {
  it('needs no voice in the scene when a file is given, and one when not', () => {
    assert.equal(validateMovie(movie('https://example.com/a.srt')).ok, true);
    const r = validateMovie(movie('https://example.com/a.srt', { src: undefined }));
    assert.equal(r.ok, false);
  });
  it('refuses a src that is neither http(s) nor data: at its path', () => {
    const r = validateMovie(movie('ftp://example.com/a.srt'));
    assert.equal(r.ok, false);
    if (!r.ok)
      assert.deepEqual(
        r.findings.map((f) => f.path),
        ['scenes[0].elements[0].src'],
      );
  });
});
