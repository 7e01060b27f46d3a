/**
 * Video clips, sounds, the soundtrack and scene transitions, rendered with the real ffmpeg and
 * headless-gl. The sources are made here by ffmpeg: clips whose pixels spell their own frame
 * number (10 bits, one 16-pixel column each), at 24, 25, 29.97 and 60 fps and at a variable
 * rate, and sine tones at frequencies nothing else in the movie has, measured in the output.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { validateMovie } from '../../movie/index.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { solidPngBytes } from './fixtures.ts';
import { frameMd5s, frameRgb, near, pixel } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-media-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

const ff = (args: string[]) => runFfmpeg('ffmpeg', ['-v', 'error', '-y', ...args]);

/** The counter clips: frame n shows n in binary, bit b white in columns [16b, 16b + 16). */
const COUNTER = "format=gray,geq=lum='255*mod(floor(N/pow(2\\,floor(X*10/W)))\\,2)'";
const BOX = { width: 160, height: 96 };
const BT709 = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709'];

async function counterClip(name: string, rate: string, seconds: number, extra: string[] = []): Promise<void> {
  await ff([
    '-f',
    'lavfi',
    '-i',
    `color=c=black:s=${BOX.width}x${BOX.height}:r=${rate}`,
    '-t',
    String(seconds),
    ...extra,
    '-vf',
    COUNTER,
    '-c:v',
    'libx264',
    '-qp',
    '0',
    '-pix_fmt',
    'yuv420p',
    // Tagged BT.709: filling a movie's frame, the clip is a backdrop (composited by ffmpeg).
    ...BT709,
    join(dir, name),
  ]);
}

/** Source frame times (seconds) of the variable-rate clip: 30 fps for a second, then 10 fps. */
const vfrTime = (n: number) => (n < 30 ? n / 30 : 1 + (n - 30) / 10);

/** Frame numbers read back from a decoded 320x180 movie, one per frame (-1: no clip there). */
async function countersOf(file: string): Promise<number[]> {
  const gray = await runFfmpeg('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'gray', '-']);
  const W = 320;
  const H = 180;
  const out: number[] = [];
  for (let f = 0; f < gray.length / (W * H); f++) {
    const row = f * W * H + 48 * W;
    // Outside the box (x = 200) is the scene's mid-grey background: no clip in this frame.
    if (Math.abs(gray[row + 200]! - gray[row + 8]!) < 2 && gray[row + 200]! > 60 && gray[row + 200]! < 200) {
      out.push(-1);
      continue;
    }
    let n = 0;
    for (let b = 0; b < 10; b++) if (gray[row + b * 16 + 8]! > 128) n |= 1 << b;
    out.push(n);
  }
  return out;
}

/** Amplitude of frequency `hz` in s16 mono samples [t0, t1) (Goertzel). */
function level(pcm: Int16Array, rate: number, hz: number, t0: number, t1: number): number {
  const a = Math.round(t0 * rate);
  const b = Math.round(t1 * rate);
  let re = 0;
  let im = 0;
  for (let i = a; i < b; i++) {
    const w = (2 * Math.PI * hz * i) / rate;
    re += pcm[i]! * Math.cos(w);
    im += pcm[i]! * Math.sin(w);
  }
  return (2 * Math.hypot(re, im)) / (b - a);
}

async function pcmOf(file: string): Promise<Int16Array> {
  // The first channel as it is (a downmix to mono would scale it by ffmpeg's matrix).
  const out = await runFfmpeg('ffmpeg', [
    ...['-v', 'error', '-i', file, '-af', 'pan=mono|c0=c0', '-f', 's16le', '-ar', '48000', '-'],
  ]);
  const pcm = new Int16Array(out.length >> 1);
  Buffer.from(pcm.buffer).set(out.subarray(0, pcm.length * 2));
  return pcm;
}

let server: Server;
let base: string;
const served = new Map<string, { type: string; body: Buffer }>();

before(async () => {
  await Promise.all([
    counterClip('c24.mp4', '24', 4),
    counterClip('c25.mp4', '25', 4),
    counterClip('c2997.mp4', '30000/1001', 4),
    counterClip('c60.mp4', '60', 3),
    counterClip('vfr.mp4', '30', 4, []),
  ]);
  // The variable-rate clip: the 30 fps counter retimed by vfrTime, kept variable in the file.
  await ff([
    '-i',
    join(dir, 'vfr.mp4'),
    '-vf',
    "setpts='if(lt(N,30),N/30,1+(N-30)/10)/TB'",
    '-fps_mode',
    'vfr',
    '-c:v',
    'libx264',
    '-qp',
    '0',
    ...BT709,
    join(dir, 'vfr2.mp4'),
  ]);
  const tone = (hz: number, seconds: number, name: string) =>
    ff(['-f', 'lavfi', '-i', `sine=frequency=${hz}:sample_rate=48000`, '-t', String(seconds), join(dir, name)]);
  await Promise.all([
    tone(10_000, 12, 'music.wav'),
    tone(1000, 1, 'beep.wav'),
    // A clip with a 3 kHz sound: the clip's own audio, mixed in unless muted.
    ff([
      '-f',
      'lavfi',
      '-i',
      'color=c=0x00ff00:s=64x64:r=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=3000:sample_rate=44100',
      '-t',
      '3',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      join(dir, 'green-3khz.mp4'),
    ]),
  ]);
  for (const name of ['c24.mp4', 'c25.mp4', 'c2997.mp4', 'c60.mp4', 'vfr2.mp4', 'green-3khz.mp4'])
    served.set(`/${name}`, { type: 'video/mp4', body: readFileSync(join(dir, name)) });
  served.set('/music.wav', { type: 'audio/wav', body: readFileSync(join(dir, 'music.wav')) });
  served.set('/beep.wav', { type: 'audio/wav', body: readFileSync(join(dir, 'beep.wav')) });
  served.set('/corrupt.mp4', { type: 'video/mp4', body: Buffer.from('not a video, only words'.repeat(100)) });
  served.set('/white.png', { type: 'image/png', body: await solidPngBytes('#ffffff', 40) });
  server = createServer((req, res) => {
    const hit = served.get(req.url ?? '');
    if (!hit) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': hit.type }).end(hit.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server?.close());

const clip = (id: string, src: string, more: Record<string, unknown> = {}) => ({
  id,
  type: 'video',
  src: `${base}/${src}`,
  ...BOX,
  fit: 'fill',
  position: { x: 0, y: 0 },
  ...more,
});

/** Each scene of the frame tests: its clip's frame times, where the clip starts on the movie and in the source. */
interface Case {
  name: string;
  /** Built when the tests run: the sources' server address is known then. */
  scene: () => Record<string, unknown>;
  /** Source time shown at `e` seconds after the element appeared (the document's rule). */
  sourceAt: (e: number) => number;
  /** The source's frame showing at source time `s` (the latest with a timestamp at or before it). */
  frameAt: (s: number) => number;
  elementStart?: number;
}
const byRate = (fps: number) => (s: number) => Math.floor(s * fps + 1e-6);
const cases: Case[] = [
  {
    name: '24 fps, trimmed at 0.37 s',
    scene: () => ({ duration: 2, elements: [clip('v24', 'c24.mp4', { trimStart: 0.37 })] }),
    sourceAt: (e) => 0.37 + e,
    frameAt: byRate(24),
  },
  {
    name: '25 fps, appearing 0.3 s into its scene',
    scene: () => ({ duration: 2, elements: [clip('v25', 'c25.mp4', { start: 0.3 })] }),
    sourceAt: (e) => e,
    frameAt: byRate(25),
    elementStart: 0.3,
  },
  {
    name: '29.97 fps, a "video" scene as long as its trimmed part',
    scene: () => ({ duration: 'video', elements: [clip('v2997', 'c2997.mp4', { trimStart: 1.1, trimDuration: 2 })] }),
    sourceAt: (e) => 1.1 + e,
    frameAt: byRate(30000 / 1001),
  },
  {
    name: '60 fps (every other frame shown)',
    scene: () => ({ duration: 2, elements: [clip('v60', 'c60.mp4', { trimStart: 0.5 })] }),
    sourceAt: (e) => 0.5 + e,
    frameAt: byRate(60),
  },
  {
    name: 'a variable frame rate',
    scene: () => ({ duration: 2.5, elements: [clip('vvfr', 'vfr2.mp4', { trimStart: 0.2 })] }),
    sourceAt: (e) => 0.2 + e,
    frameAt: (s) => {
      let n = 0;
      while (vfrTime(n + 1) <= s + 1e-6) n++;
      return n;
    },
  },
  {
    name: 'a 1 s part looped',
    scene: () => ({
      duration: 2.5,
      elements: [clip('vloop', 'c25.mp4', { trimStart: 1, trimDuration: 1, loop: true })],
    }),
    sourceAt: (e) => 1 + (e % 1),
    frameAt: byRate(25),
  },
  {
    name: 'a 0.5 s part held on its last frame',
    scene: () => ({ duration: 2, elements: [clip('vhold', 'c24.mp4', { trimDuration: 0.5, duration: 2 })] }),
    sourceAt: (e) => Math.min(e, 0.5 - 1e-4),
    frameAt: byRate(24),
  },
];

describe('video elements: the right source frame at every movie frame', () => {
  let counters: number[];
  let segmentsEqual = false;
  const fps = 30;
  let starts: number[];
  before(async () => {
    const movie = valid({
      schema: 'v1',
      width: 320,
      height: 180,
      fps,
      scenes: cases.map((c, i) => ({ id: `s${i}`, background: '#808080', ...c.scene() })),
    });
    const out = join(dir, 'counters.mp4');
    // Lossless frames: the bits are read back exactly.
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    counters = await countersOf(out);
    // The same movie cut into 3 segments, each decoding its clips from its own first frame on.
    const parallel = join(dir, 'counters-3.mp4');
    await renderMovie({ movie, output: parallel, config, quality: 'lossless', parallel: 3 });
    segmentsEqual = (await frameMd5s(parallel)).join() === (await frameMd5s(out)).join();
    starts = [];
    let t = 0;
    for (const c of cases) {
      starts.push(t);
      const d = c.scene().duration;
      t += typeof d === 'number' ? d : 2; // the 29.97 scene plays 2 s of its clip
    }
    assert.equal(counters.length, Math.round(t * fps), 'every scene has its frames');
  });

  it('gives the same frames when cut into segments', () => {
    assert.ok(segmentsEqual, 'every frame of the 3-segment render equals the one-segment render');
  });

  cases.forEach((c, i) => {
    it(c.name, () => {
      const from = Math.round(starts[i]! * fps);
      const to = Math.round((starts[i + 1] ?? counters.length / fps) * fps);
      const wrong: string[] = [];
      for (let f = from; f < to; f++) {
        const e = f / fps - starts[i]! - (c.elementStart ?? 0);
        // Float noise: 69 / 30 - 2 - 0.3 is -4e-16, and the element is on screen at that frame.
        const expected = e < -1e-9 ? -1 : c.frameAt(c.sourceAt(Math.max(0, e)));
        if (counters[f] !== expected) wrong.push(`frame ${f}: ${counters[f]}, expected ${expected}`);
      }
      assert.deepEqual(wrong, []);
    });
  });
});

describe('a clip filling the frame: chunks composited by ffmpeg', () => {
  // The same clips filling a 160x96 movie: a backdrop (a full-frame BT.709 clip) in every frame, so
  // ffmpeg decodes, cuts, overlays and encodes every chunk, and no frame passes through the renderer.
  const full = cases.filter((c) => c.elementStart === undefined);
  const W = 160;
  const H = 96;
  const md5s: Record<string, string[]> = {};
  const composited: Record<string, number> = {};
  /** MD5 of each render's video stream as stored (its H.264 bytes). */
  const streams: Record<string, string> = {};
  const render = async (
    name: string,
    movie: ReturnType<typeof valid>,
    more: Partial<Parameters<typeof renderMovie>[0]>,
  ) => {
    const output = join(dir, `${name}.mp4`);
    const r = await renderMovie({ movie, output, config, quality: 'lossless', ...more });
    composited[name] = r.segmentStats.reduce((n, s) => n + s.composited, 0);
    md5s[name] = await frameMd5s(output);
    streams[name] = (
      await runFfmpeg('ffmpeg', ['-v', 'error', '-i', output, '-map', '0:v', '-c', 'copy', '-f', 'md5', '-'])
    ).toString();
    return output;
  };
  let overlays: { composited: string; drawn: string };
  before(async () => {
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 30,
      scenes: full.map((c, i) => ({ id: `s${i}`, background: '#808080', ...c.scene() })),
    });
    await render('full', movie, {});
    await render('full-drawn', movie, { composite: false });
    await render('full-2', movie, { parallel: 2 });
    // Layers over the clip: a sliding image, a fading coloured title, a half-transparent block.
    const over = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 30,
      scenes: [
        {
          id: 'o',
          duration: 3,
          elements: [
            clip('bg', 'c25.mp4', { loop: true }),
            {
              id: 'img',
              type: 'image',
              src: `${base}/white.png`,
              width: 40,
              height: 40,
              position: { x: 13, y: 21 },
              animation: { preset: 'slide-in-up', duration: 1 },
            },
            {
              id: 'title',
              type: 'text',
              text: 'Over a clip',
              fontSize: 20,
              color: '#ff8800',
              position: { x: 60, y: 10 },
              start: 0.5,
              animation: { preset: 'fade-in', duration: 1 },
            },
            // Half transparent for the whole scene: fading in over its 3 s.
            {
              id: 'veil',
              type: 'image',
              src: `${base}/white.png`,
              width: 60,
              height: 24,
              position: { x: 91, y: 63 },
              animation: { preset: 'fade-in', duration: 3 },
            },
          ],
        },
      ],
    });
    overlays = {
      composited: await render('over', over, {}),
      drawn: await render('over-drawn', over, { composite: false }),
    };
  });

  it('composites every chunk, and draws them all when told not to', () => {
    assert.equal(composited.full, md5s.full!.length);
    assert.equal(composited['full-2'], md5s.full!.length);
    assert.equal(composited['full-drawn'], 0);
    assert.equal(composited.over, 90);
  });

  it('shows the frames the renderer shows: every rate, trimmed, looped, held, across chunks', () => {
    assert.equal(md5s.full!.length, 13 * 30);
    const differ = md5s.full!.flatMap((m, f) => (m === md5s['full-drawn']![f] ? [] : [f]));
    assert.deepEqual(differ, [], 'frames that differ from the drawn render');
    // The same frames in, the same settings: the encoder wrote the same bytes.
    assert.equal(streams.full, streams['full-drawn']);
  });

  it('gives the same frames when cut into segments', () => {
    assert.deepEqual(md5s['full-2'], md5s.full);
  });

  it('lays the layers over the clip as the renderer does', async () => {
    const yuv = async (file: string) =>
      runFfmpeg('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-']);
    const [a, b] = await Promise.all([yuv(overlays.composited), yuv(overlays.drawn)]);
    assert.equal(a.length, b.length);
    const frame = (W * H * 3) / 2;
    const cw = W / 2;
    let lumaMax = 0;
    let flat = 0;
    const chromaOff: string[] = [];
    for (let f = 0; f < a.length / frame; f++) {
      const at = f * frame;
      for (let i = 0; i < W * H; i++) lumaMax = Math.max(lumaMax, Math.abs(a[at + i]! - b[at + i]!));
      // Chroma where the 2x2 block it stands for is flat in the drawn frame (no layer's edge in it).
      for (let y = 0; y < H / 2; y++)
        for (let x = 0; x < cw; x++) {
          const block = [0, 1, W, W + 1].map((o) => b[at + 2 * y * W + 2 * x + o]!);
          if (Math.max(...block) - Math.min(...block) > 2) continue;
          flat++;
          for (const plane of [W * H, W * H + (W * H) / 4]) {
            const j = at + plane + y * cw + x;
            if (Math.abs(a[j]! - b[j]!) > 2) chromaOff.push(`frame ${f} (${2 * x}, ${2 * y}): ${a[j]} vs ${b[j]}`);
          }
        }
    }
    // Luma: rounding apart (ffmpeg blends in its own integer arithmetic).
    assert.ok(lumaMax <= 2, `luma differs by up to ${lumaMax}`);
    // Chroma: the same wherever a 2x2 block is flat. Along a layer's edge the two 4:2:0 conventions
    // differ: ffmpeg's overlay averages the block's alpha and colour, the renderer takes its
    // top-left pixel's, so a coloured title's outline may differ there.
    assert.ok(flat > (90 * W * H) / 4 / 2, 'most blocks are flat');
    assert.deepEqual(chromaOff.slice(0, 10), []);
  });
});

describe('sound: the soundtrack ducked under voice, a sound effect, a clip with and without its sound', () => {
  let pcm: Int16Array;
  let soundFile: string;
  before(async () => {
    const movie = valid({
      schema: 'v1',
      width: 320,
      height: 180,
      fps: 10,
      soundtrack: { src: `${base}/music.wav` },
      scenes: [
        {
          id: 'talk',
          duration: 3,
          elements: [{ id: 'vo', type: 'voice', text: 'Hello there my good friend', start: 1 }],
        },
        {
          id: 'fx',
          duration: 2,
          elements: [
            { id: 'beep', type: 'audio', src: `${base}/beep.wav`, start: 0.5, duration: 0.5 },
            { id: 'loud', type: 'video', src: `${base}/green-3khz.mp4`, width: 64, height: 64 },
          ],
        },
        {
          id: 'quiet',
          duration: 1,
          elements: [{ id: 'mute', type: 'video', src: `${base}/green-3khz.mp4`, width: 64, height: 64, muted: true }],
        },
      ],
    });
    soundFile = join(dir, 'sound.mp4');
    await renderMovie({ movie, output: soundFile, config });
    pcm = await pcmOf(soundFile);
  });

  it('is stereo, as a mix with music is', async () => {
    const probe = await runFfmpeg('ffprobe', [
      ...['-v', 'error', '-select_streams', 'a', '-show_entries', 'stream=channels', '-of', 'csv=p=0', soundFile],
    ]);
    assert.equal(probe.toString().trim(), '2');
  });

  it('plays the music across scenes and lowers it by the default 0.25 while the voice speaks', () => {
    const before = level(pcm, 48000, 10_000, 0.2, 0.7);
    const during = level(pcm, 48000, 10_000, 1.3, 1.8);
    const later = level(pcm, 48000, 10_000, 5.3, 5.8);
    assert.ok(before > 3000, `music plays: ${before}`);
    assert.ok(Math.abs(during / before - 0.25) < 0.05, `ducked to ${(during / before).toFixed(3)} of its level`);
    assert.ok(Math.abs(later / before - 1) < 0.05, `back to full after the voice: ${(later / before).toFixed(3)}`);
  });

  it('places a sound effect at its start, for its duration', () => {
    const at = level(pcm, 48000, 1000, 3.55, 3.95);
    assert.ok(at > 2000, `beep between 3.5 and 4 s: ${at}`);
    assert.ok(level(pcm, 48000, 1000, 3.0, 3.45) < at / 20, 'silent before its start');
    assert.ok(level(pcm, 48000, 1000, 4.05, 4.5) < at / 20, 'silent after its duration');
  });

  it("mixes a clip's sound in, and leaves a muted clip's out", () => {
    const loud = level(pcm, 48000, 3000, 3.2, 4.8);
    assert.ok(loud > 2000, `clip sound while it shows: ${loud}`);
    assert.ok(level(pcm, 48000, 3000, 5.1, 5.9) < loud / 20, 'nothing of the muted clip');
    assert.ok(level(pcm, 48000, 3000, 0.2, 2.8) < loud / 20, 'nothing before the clip');
  });
});

describe('scene transitions', () => {
  let out: string;
  before(async () => {
    const movie = valid({
      schema: 'v1',
      width: 320,
      height: 180,
      fps: 10,
      scenes: [
        { id: 'red', duration: 2, background: '#ff0000', elements: [{ id: 't0', type: 'text', text: ' ' }] },
        {
          id: 'blue',
          duration: 2,
          background: '#0000ff',
          transition: { type: 'crossfade', duration: 1 },
          elements: [
            { id: 'box', type: 'image', src: `${base}/white.png`, width: 40, height: 40, position: { x: 260, y: 70 } },
          ],
        },
        {
          id: 'green',
          duration: 2,
          background: '#00ff00',
          transition: { type: 'slide-left', duration: 1 },
          elements: [{ id: 't2', type: 'text', text: ' ' }],
        },
        {
          id: 'yellow',
          duration: 2,
          background: '#ffff00',
          transition: { type: 'wipe-right', duration: 1 },
          elements: [{ id: 't3', type: 'text', text: ' ' }],
        },
      ],
    });
    out = join(dir, 'transitions.mp4');
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
  });

  it('overlaps the scenes: 8 s of scenes with three 1 s transitions last 5 s', async () => {
    const probe = await runFfmpeg('ffprobe', [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'stream=nb_read_frames',
      '-of',
      'csv=p=0',
      out,
    ]);
    assert.equal(probe.toString().trim(), '50');
  });

  it("a crossfade's midpoint is the even mix of both scenes", async () => {
    const f = await frameRgb(out, 15); // 1.5 s: half-way through red -> blue
    assert.ok(near(pixel(f, 320, 40, 40), [128, 0, 128], 6), `mix ${pixel(f, 320, 40, 40)}`);
    assert.ok(near(pixel(await frameRgb(out, 9), 320, 40, 40), [255, 0, 0], 6), 'red before it');
    assert.ok(near(pixel(await frameRgb(out, 21), 320, 40, 40), [0, 0, 255], 6), 'blue after it');
  });

  it('a slide pushes the old scene out to the left while the new one comes in from the right', async () => {
    const f = await frameRgb(out, 25); // 2.5 s: half-way through blue -> green
    assert.ok(
      near(pixel(f, 320, 120, 90), [255, 255, 255], 8),
      `the white box moved left by half the frame: ${pixel(f, 320, 120, 90)}`,
    );
    assert.ok(near(pixel(f, 320, 40, 20), [0, 0, 255], 6), `blue on the left: ${pixel(f, 320, 40, 20)}`);
    assert.ok(near(pixel(f, 320, 280, 90), [0, 255, 0], 6), `green on the right: ${pixel(f, 320, 280, 90)}`);
  });

  it('a wipe uncovers the new scene from the left edge, moving right', async () => {
    const f = await frameRgb(out, 35); // 3.5 s: half-way through green -> yellow
    assert.ok(near(pixel(f, 320, 40, 90), [255, 255, 0], 6), `yellow on the left: ${pixel(f, 320, 40, 90)}`);
    assert.ok(near(pixel(f, 320, 280, 90), [0, 255, 0], 6), `green on the right: ${pixel(f, 320, 280, 90)}`);
  });
});

describe('bad media fail the render at the element, before a frame is drawn', () => {
  const one = (el: Record<string, unknown>, more: Record<string, unknown> = {}) =>
    valid({
      schema: 'v1',
      width: 160,
      height: 90,
      fps: 10,
      ...more,
      scenes: [{ id: 's', duration: 1, elements: [el] }],
    });
  const cases: [string, () => ReturnType<typeof one>, string, string, RegExp][] = [
    [
      'a missing clip',
      () => one({ id: 'v', type: 'video', src: `${base}/nope.mp4` }),
      'ASSET_UNREACHABLE',
      'scenes[0].elements[0].src',
      /HTTP 404/,
    ],
    [
      'a corrupt clip',
      () => one({ id: 'v', type: 'video', src: `${base}/corrupt.mp4` }),
      'ASSET_INVALID',
      'scenes[0].elements[0].src',
      /not a video or audio file/,
    ],
    [
      'a sound given as a video',
      () => one({ id: 'v', type: 'video', src: `${base}/beep.wav` }),
      'ASSET_INVALID',
      'scenes[0].elements[0].src',
      /content type audio\/wav/,
    ],
    [
      'a clip without sound given as audio',
      () => one({ id: 'a', type: 'audio', src: `${base}/c24.mp4` }),
      'ASSET_INVALID',
      'scenes[0].elements[0].src',
      /no audio stream/,
    ],
    [
      'trimStart past the end of the clip',
      () => one({ id: 'v', type: 'video', src: `${base}/c24.mp4`, trimStart: 9 }),
      'ASSET_INVALID',
      'scenes[0].elements[0].trimStart',
      /past the end/,
    ],
    [
      'an image as the soundtrack',
      () => one({ id: 't', type: 'text', text: 'x' }, { soundtrack: { src: `${base}/white.png` } }),
      'ASSET_INVALID',
      'soundtrack.src',
      /content type image\/png/,
    ],
  ];
  it('a clip over the size limit: ASSET_UNREACHABLE at its src, and nothing of it left on disk', async () => {
    const scratch = mkdtempSync(join(dir, 'scratch-'));
    await assert.rejects(
      renderMovie({
        movie: one({ id: 'v', type: 'video', src: `${base}/c60.mp4` }),
        output: join(dir, 'never.mp4'),
        config: { ...config, mediaMaxBytes: 1000 },
        tmpRoot: scratch,
      }),
      (err: unknown) => {
        assert.ok(err instanceof AppError, String(err));
        assert.deepEqual([err.code, err.path], ['ASSET_UNREACHABLE', 'scenes[0].elements[0].src']);
        assert.match(err.message, /limit of 1000 bytes/);
        return true;
      },
    );
    assert.deepEqual(readdirSync(scratch), [], 'the render removed its scratch directory');
  });

  for (const [name, movie, code, path, message] of cases) {
    it(`${name}: ${code} at ${path}`, async () => {
      let frames = 0;
      await assert.rejects(
        renderMovie({
          movie: movie(),
          output: join(dir, 'never.mp4'),
          config,
          onProgress: (e) => {
            if (e.phase === 'rendering') frames++;
          },
        }),
        (err: unknown) => {
          assert.ok(err instanceof AppError, String(err));
          assert.equal(err.code, code);
          assert.equal(err.path, path);
          assert.match(err.message, message);
          return true;
        },
      );
      assert.equal(frames, 0, 'failed while preparing');
    });
  }
});
