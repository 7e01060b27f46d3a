/**
 * Keyframes, easing, entry/exit presets rendered with the real ffmpeg and headless-gl: tiny
 * lossless renders (160x90, 10 fps) of white shapes on black, measured from the decoded luma.
 *
 * Tolerances: GL draws a pixel when its centre falls inside the (unrotated, solid) quad, so an
 * edge lands on the pixel boundary nearest its exact place: a box's centroid is off by at most
 * 0.5 px, a width by at most 1 px. Lossless H.264 adds nothing to luma. An alpha blend is rounded
 * to 8 bits in RGB and again in Y: at most 1.5 levels of the 219 between black and white.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { ease, easingOf, springAt, stepsAt } from '../../movie/easing.ts';
import { validateMovie } from '../../movie/index.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { solidPngBytes } from './fixtures.ts';
import { frameMd5s } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-motion-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const W = 160;
const H = 90;
const FPS = 10;

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/** Every frame's luma plane (limited range: 16 black, 235 white), read straight from yuv420p. */
async function lumaFrames(file: string): Promise<Uint8Array[]> {
  const raw = await runFfmpeg('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-']);
  const size = (W * H * 3) / 2;
  const out: Uint8Array[] = [];
  for (let o = 0; o + size <= raw.length; o += size) out.push(raw.subarray(o, o + W * H));
  return out;
}

/** Coverage 0..1 of each pixel in rows [y0, y1): (Y - 16) / 219. */
function moments(y: Uint8Array, rows: [number, number] = [0, H], cols: [number, number] = [0, W]) {
  let m = 0;
  let mx = 0;
  let my = 0;
  let mxx = 0;
  let myy = 0;
  let mxy = 0;
  for (let r = rows[0]; r < rows[1]; r++)
    for (let c = cols[0]; c < cols[1]; c++) {
      const w = Math.max(0, y[r * W + c]! - 16) / 219;
      if (w < 0.02) continue;
      const [px, py] = [c + 0.5, r + 0.5];
      m += w;
      mx += w * px;
      my += w * py;
      mxx += w * px * px;
      myy += w * py * py;
      mxy += w * px * py;
    }
  const cx = mx / m;
  const cy = my / m;
  const u20 = mxx / m - cx * cx;
  const u02 = myy / m - cy * cy;
  const u11 = mxy / m - cx * cy;
  // The principal axis of the shape, degrees clockwise on screen (y down).
  const angle = (0.5 * Math.atan2(2 * u11, u20 - u02) * 180) / Math.PI;
  return { mass: m, cx, cy, angle };
}

/** Columns in row `r` lit at least half. */
function litWidth(y: Uint8Array, r: number, cols: [number, number]): number {
  let n = 0;
  for (let c = cols[0]; c < cols[1]; c++) if (y[r * W + c]! > 16 + 219 / 2) n++;
  return n;
}

let white: string;
before(async () => {
  white = `data:image/png;base64,${(await solidPngBytes('#ffffff', 8)).toString('base64')}`;
});

const image = (id: string, width: number, height: number, x: number, y: number, more: Record<string, unknown>) => ({
  id,
  type: 'image',
  src: white,
  fit: 'fill',
  width,
  height,
  position: { x, y },
  ...more,
});

describe('keyframes rendered', () => {
  let frames: Uint8Array[];
  before(async () => {
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: FPS,
      scenes: [
        {
          id: 'move',
          duration: 2,
          background: '#000000',
          elements: [
            image('a', 20, 20, 10, 10, {
              animate: {
                x: [
                  { time: 0, value: 10, easing: 'ease-in-out' },
                  { time: 1, value: 130 },
                ],
                y: [
                  { time: 0, value: 10, easing: 'steps(4)' },
                  { time: '100%', value: 50 },
                ],
              },
            }),
          ],
        },
        {
          id: 'scale-fade',
          duration: 2,
          background: '#000000',
          elements: [
            image('b', 20, 20, 20, 35, {
              animate: {
                scale: [
                  { time: 0, value: 1 },
                  { time: 1, value: 3 },
                ],
              },
            }),
            image('c', 20, 20, 120, 35, {
              animate: {
                opacity: [
                  { time: 0, value: 0 },
                  { time: 1, value: 1 },
                ],
              },
            }),
          ],
        },
        {
          id: 'turn-spring',
          duration: 2,
          background: '#000000',
          elements: [
            image('bar', 40, 8, 60, 51, {
              animate: {
                rotation: [
                  { time: 0, value: 0, easing: 'ease-out' },
                  { time: 1.5, value: 90 },
                ],
              },
            }),
            image('s', 16, 16, 10, 2, {
              animate: {
                x: [
                  { time: 0, value: 10, easing: 'spring(1, 100, 10)' },
                  { time: 1.5, value: 100 },
                ],
              },
            }),
          ],
        },
        {
          id: 'in-out',
          duration: 2,
          background: '#000000',
          elements: [
            image('e', 20, 20, 70, 35, {
              duration: 1.5,
              animation: { in: { preset: 'slide-right', duration: 0.5 }, out: { preset: 'fade', duration: 0.5 } },
            }),
          ],
        },
        {
          id: 'crop',
          duration: 1,
          background: '#000000',
          elements: [
            image('m', 40, 20, 60, 35, {
              animate: {
                crop: [
                  { time: 0, value: { x: 0, y: 0, width: 40, height: 20 } },
                  { time: 1, value: { x: 10, y: 5, width: 20, height: 10 } },
                ],
              },
            }),
          ],
        },
      ],
    });
    const out = join(dir, 'keys.mp4');
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    frames = await lumaFrames(out);
  });

  it('renders every frame', () => assert.equal(frames.length, 90));

  it('x follows ease-in-out and y steps(4, jump-end), within 0.5 px', () => {
    const io = easingOf('ease-in-out');
    for (let f = 0; f < 20; f++) {
      const t = f / FPS;
      const m = moments(frames[f]!);
      const x = 10 + 120 * ease(io, Math.min(1, t), t) + 10;
      const y = 10 + 40 * stepsAt(4, 'jump-end', t / 2) + 10;
      assert.ok(Math.abs(m.cx - x) <= 0.5 + 1e-9, `frame ${f}: centroid x ${m.cx}, formula ${x}`);
      assert.ok(Math.abs(m.cy - y) <= 0.5 + 1e-9, `frame ${f}: centroid y ${m.cy}, formula ${y}`);
    }
  });

  it('scale about the centre (width 20 s within 1 px) and opacity (within 1.5 of 219 levels)', () => {
    for (let f = 20; f < 40; f++) {
      const t = (f - 20) / FPS;
      const s = 1 + 2 * Math.min(1, t);
      const y = frames[f]!;
      const width = litWidth(y, 45, [0, 100]);
      assert.ok(Math.abs(width - 20 * s) <= 1, `frame ${f}: width ${width}, formula ${20 * s}`);
      assert.ok(Math.abs(moments(y, [0, H], [0, 100]).cx - 30) <= 0.5 + 1e-9, `frame ${f}: scaled about its centre`);
      const alpha = Math.min(1, t);
      const level = y[45 * W + 130]!;
      assert.ok(Math.abs(level - (16 + 219 * alpha)) <= 1.5, `frame ${f}: Y ${level}, formula ${16 + 219 * alpha}`);
    }
  });

  it('rotation follows ease-out (principal axis within 2 degrees) and a spring settles where its formula says', () => {
    const out = easingOf('ease-out');
    for (let f = 40; f < 60; f++) {
      const t = (f - 40) / FPS;
      const y = frames[f]!;
      const bar = moments(y, [22, H]);
      const deg = 90 * ease(out, Math.min(1, t / 1.5), t);
      // The axis of a 40x8 bar is defined modulo 180: compare on the circle.
      const diff = Math.abs(((bar.angle - deg + 90 + 180) % 180) - 90);
      assert.ok(diff <= 2, `frame ${f}: axis ${bar.angle} degrees, formula ${deg}`);
      assert.ok(Math.abs(bar.cx - 80) <= 0.5 && Math.abs(bar.cy - 55) <= 0.5, `frame ${f}: turns about its centre`);
      const s = moments(y, [0, 20]);
      const x = t < 1.5 ? 10 + 90 * springAt(1, 100, 10, t) + 8 : 108;
      assert.ok(Math.abs(s.cx - x) <= 0.5 + 1e-9, `frame ${f}: spring centroid ${s.cx}, formula ${x}`);
    }
    // The spring overshoots (zeta 0.5: 16%) and has settled to within half a pixel by 1.1 s.
    assert.ok(moments(frames[43]!, [0, 20]).cx > 108 + 10);
    for (let f = 51; f < 60; f++) assert.ok(Math.abs(moments(frames[f]!, [0, 20]).cx - 108) <= 0.5);
  });

  it('entry slides in with ease-out cubic; the exit fades with ease-in cubic and ends at the element end', () => {
    for (let f = 61; f < 65; f++) {
      const p = (f - 60) / FPS / 0.5;
      const m = moments(frames[f]!);
      const x = 80 - 40 * (1 - p) ** 3;
      assert.ok(Math.abs(m.cx - x) <= 0.5 + 1e-9, `frame ${f}: centroid ${m.cx}, formula ${x}`);
    }
    for (let f = 65; f < 75; f++) {
      const t = (f - 60) / FPS;
      const alpha = t < 1 ? 1 : 1 - ((t - 1) / 0.5) ** 3;
      const level = frames[f]![45 * W + 80]!;
      assert.ok(Math.abs(level - (16 + 219 * alpha)) <= 1.5, `frame ${f}: Y ${level}, formula ${16 + 219 * alpha}`);
    }
    // Its last frame (1.4 s) is still faintly there; from 1.5 s on nothing is.
    assert.ok(frames[74]![45 * W + 80]! > 16 + 50);
    for (let f = 75; f < 80; f++) assert.ok(Math.max(...frames[f]!) <= 17, `frame ${f} is empty`);
  });

  it('a crop rectangle shows that part of the picture where it is, within a pixel per edge', () => {
    for (let f = 80; f < 90; f++) {
      const p = (f - 80) / FPS;
      const [x, y, w, h] = [10 * p, 5 * p, 40 - 20 * p, 20 - 10 * p];
      const y0 = frames[f]!;
      let [l, t, r, b] = [W, H, -1, -1];
      for (let row = 0; row < H; row++)
        for (let c = 0; c < W; c++)
          if (y0[row * W + c]! > 128)
            [l, t, r, b] = [Math.min(l, c), Math.min(t, row), Math.max(r, c + 1), Math.max(b, row + 1)];
      const want = [60 + x, 35 + y, 60 + x + w, 35 + y + h];
      const got = [l, t, r, b];
      assert.ok(
        got.every((v, i) => Math.abs(v - want[i]!) <= 1),
        `frame ${f}: lit ${got.join(',')}, crop ${want.map((v) => v.toFixed(1)).join(',')}`,
      );
    }
  });
});

describe('keyframes in segments', () => {
  it('a keyframed movie rendered as 3 segments has the frames of the one-pod render', async () => {
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: FPS,
      scenes: [
        {
          id: 'long',
          duration: 25,
          background: '#102030',
          elements: [
            image('k', 20, 20, 10, 10, {
              animation: { in: { preset: 'zoom', duration: 1 }, out: { preset: 'slide-up', duration: 2 } },
              animate: {
                // Segments across both chunk boundaries (10 s and 20 s).
                x: [
                  { time: 0, value: 0, easing: 'spring(1, 20, 2)' },
                  { time: 12, value: 120, easing: 'ease' },
                  { time: '100%', value: 30 },
                ],
                rotation: [
                  { time: 5, value: 0, easing: 'cubic-bezier(0.3, -0.4, 0.7, 1.4)' },
                  { time: 21, value: 720 },
                ],
                opacity: [
                  { time: 9, value: 1, easing: 'steps(5, jump-start)' },
                  { time: 11, value: 0.2 },
                ],
                crop: [
                  { time: 0, value: { x: 0, y: 0, width: 20, height: 20 } },
                  { time: 20.5, value: { x: 5, y: 2, width: 8, height: 10 } },
                ],
              },
            }),
          ],
        },
      ],
    });
    const one = join(dir, 'seg-1.mp4');
    const three = join(dir, 'seg-3.mp4');
    const a = await renderMovie({ movie, output: one, config });
    const b = await renderMovie({ movie, output: three, config, parallel: 3 });
    assert.equal(a.segments, 1);
    assert.equal(b.segments, 3);
    const [ma, mb] = [await frameMd5s(one), await frameMd5s(three)];
    assert.equal(ma.length, 250);
    const differ = ma.flatMap((m, i) => (m === mb[i] ? [] : [i]));
    assert.deepEqual(differ, [], `frames that differ: ${differ.slice(0, 10).join(', ')}`);
    // And it moved: frames across the movie are not all the same picture.
    assert.ok(new Set(ma).size > 100);
  });
});

describe('text revealed letter by letter', () => {
  const TW = 320;
  const latin = 'Hi नमस्ते 👍🏽';
  const arabic = 'مرحبا';
  let frames: Uint8Array[];
  before(async () => {
    const text = (id: string, t: string, y: number, more: Record<string, unknown>) => ({
      id,
      type: 'text',
      text: t,
      fontSize: 24,
      color: '#ffffff',
      position: { x: 40, y },
      ...more,
    });
    // Units appear at 0.05 + 0.1 i s: between frames, so frame n shows exactly n of them.
    const reveal = { textAnimation: { unit: 'letter', style: 'typewriter', stagger: 0.1, start: 0.05 } };
    const movie = valid({
      schema: 'v1',
      width: TW,
      height: H,
      fps: FPS,
      scenes: [
        {
          id: 'reveal',
          duration: 1,
          background: '#000000',
          elements: [text('l', latin, 5, reveal), text('a', arabic, 50, reveal)],
        },
        {
          id: 'still',
          duration: 0.2,
          background: '#000000',
          elements: [text('l', latin, 5, {}), text('a', arabic, 50, {})].map((e, i) => ({ ...e, id: `s${i}` })),
        },
      ],
    });
    const out = join(dir, 'reveal.mp4');
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    const raw = await runFfmpeg('ffmpeg', ['-v', 'error', '-i', out, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-']);
    const size = (TW * H * 3) / 2;
    frames = [];
    for (let o = 0; o + size <= raw.length; o += size) frames.push(raw.subarray(o, o + TW * H));
  });

  /** Columns with ink in rows [y0, y1). */
  const inkColumns = (y: Uint8Array, y0: number, y1: number) => {
    const cols = new Set<number>();
    for (let r = y0; r < y1; r++) for (let c = 0; c < TW; c++) if (y[r * TW + c]! > 24) cols.add(c);
    return cols;
  };

  it('shows n grapheme clusters at frame n, each whole: 6 steps for 12 UTF-16 units; the full text is the still one', () => {
    const still = frames[10]!;
    const clusters = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(latin)].filter(
      (s) => s.segment.trim() !== '',
    ).length;
    assert.equal(clusters, 6);
    assert.equal(latin.replace(/\s/g, '').length, 12);
    let before = 0;
    for (let n = 0; n < 10; n++) {
      const y = frames[n]!;
      // Every pixel is the still text's or the background: units show whole, drawn as they are.
      for (let i = 0; i < 45 * TW; i++)
        assert.ok(y[i] === still[i] || y[i] === 16, `frame ${n}, pixel ${i % TW},${Math.floor(i / TW)}`);
      const ink = inkColumns(y, 0, 45).size;
      if (n === 0) assert.equal(ink, 0, 'nothing before the first unit');
      else if (n <= clusters)
        assert.ok(ink > before, `frame ${n} shows one more cluster (${before} -> ${ink} columns)`);
      else assert.equal(ink, before, `frame ${n}: all ${clusters} clusters shown, nothing more`);
      before = ink;
    }
    assert.deepEqual(frames[9]!.subarray(0, 45 * TW), still.subarray(0, 45 * TW));
  });

  it('reveals right-to-left text from the right: five Arabic letters, the first at the right end', () => {
    const still = inkColumns(frames[10]!, 45, H);
    const [lo, hi] = [Math.min(...still), Math.max(...still)];
    const first = inkColumns(frames[1]!, 45, H);
    assert.ok(first.size > 0 && Math.min(...first) > (lo + hi) / 2, `first letter at ${Math.min(...first)}..${hi}`);
    let before = 0;
    for (let n = 1; n <= 5; n++) {
      const ink = inkColumns(frames[n]!, 45, H).size;
      assert.ok(ink > before, `frame ${n}`);
      before = ink;
    }
    assert.deepEqual(frames[5]!.subarray(45 * TW), frames[10]!.subarray(45 * TW));
  });
});

describe('keyframed volume', () => {
  it("a tone's level follows animate.volume (ease-in from 0 to 1 over 1 s, then 1), measured at its frequency", async () => {
    const tone = join(dir, 'tone.wav');
    await runFfmpeg('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=1000:duration=2',
      '-ar',
      '48000',
      tone,
    ]);
    const body = readFileSync(tone);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' }).end(body);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const src = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tone.wav`;
      const movie = valid({
        schema: 'v1',
        width: W,
        height: H,
        fps: FPS,
        loudness: false,
        scenes: [
          {
            id: 's',
            duration: 2,
            elements: [
              {
                id: 'a',
                type: 'audio',
                src,
                animate: {
                  volume: [
                    { time: 0, value: 0, easing: 'ease-in' },
                    { time: '50%', value: 1 },
                  ],
                },
              },
            ],
          },
        ],
      });
      const out = join(dir, 'tone.mp4');
      await renderMovie({ movie, output: out, config });
      const raw = await runFfmpeg('ffmpeg', [
        '-v',
        'error',
        '-i',
        out,
        '-af',
        'pan=mono|c0=c0',
        '-f',
        's16le',
        '-ar',
        '48000',
        '-',
      ]);
      const pcm = new Int16Array(raw.buffer, raw.byteOffset, raw.length >> 1);
      // The tone's amplitude over a 20 ms window (20 whole periods), by correlation at 1 kHz.
      const level = (t: number) => {
        const a = Math.round((t - 0.01) * 48000);
        let re = 0;
        let im = 0;
        for (let i = a; i < a + 960; i++) {
          re += pcm[i]! * Math.cos((2 * Math.PI * 1000 * i) / 48000);
          im += pcm[i]! * Math.sin((2 * Math.PI * 1000 * i) / 48000);
        }
        return (2 * Math.hypot(re, im)) / 960;
      };
      const full = level(1.5);
      assert.ok(full > 1000, `the tone plays at full volume after 1 s (${full})`);
      const curve = easingOf('ease-in');
      // AAC at 128 kb/s and the 10 ms envelope steps: within 2% of full scale plus 3% of the level.
      for (const t of [0.2, 0.4, 0.5, 0.6, 0.8, 0.9]) {
        const want = ease(curve, t, t);
        const got = level(t) / full;
        assert.ok(
          Math.abs(got - want) <= 0.02 + 0.03 * want,
          `at ${t} s: ${got.toFixed(3)} of full, formula ${want.toFixed(3)}`,
        );
      }
    } finally {
      server.close();
    }
  });
});

describe('keyframed layers over a clip: the composited fast path', () => {
  it('draws turned, cropped and revealed layers over a backdrop as the renderer does, composited by ffmpeg', async () => {
    const [CW, CH] = [160, 96];
    const clipFile = join(dir, 'bg.mp4');
    await runFfmpeg('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=${CW}x${CH}:r=10`, '-t', '2'],
      ...['-c:v', 'libx264', '-qp', '0', '-pix_fmt', 'yuv420p'],
      ...['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', clipFile],
    ]);
    const body = readFileSync(clipFile);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' }).end(body);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const src = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bg.mp4`;
      const movie = valid({
        schema: 'v1',
        width: CW,
        height: CH,
        fps: FPS,
        scenes: [
          {
            id: 'o',
            duration: 2,
            elements: [
              { id: 'bg', type: 'video', src, width: CW, height: CH, position: { x: 0, y: 0 } },
              image('turn', 30, 12, 20, 20, {
                animate: {
                  rotation: [
                    { time: 0, value: 0, easing: 'ease-in-out' },
                    { time: 2, value: 180 },
                  ],
                  scaleY: [
                    { time: 0, value: 1 },
                    { time: 1, value: 2 },
                  ],
                  crop: [
                    { time: 0, value: { x: 0, y: 0, width: 30, height: 12 } },
                    { time: 2, value: { x: 10, y: 0, width: 10, height: 12 } },
                  ],
                },
              }),
              {
                id: 'title',
                type: 'text',
                text: 'Hi नमस्ते',
                fontSize: 20,
                color: '#ff8800',
                position: { x: 60, y: 60 },
                textAnimation: { unit: 'word', style: 'rise', stagger: 0.5, duration: 0.5 },
              },
            ],
          },
        ],
      });
      const run = async (name: string, composite: boolean) => {
        const output = join(dir, `${name}.mp4`);
        const r = await renderMovie({ movie, output, config, quality: 'lossless', composite });
        const yuv = await runFfmpeg('ffmpeg', [
          '-v',
          'error',
          '-i',
          output,
          '-f',
          'rawvideo',
          '-pix_fmt',
          'yuv420p',
          '-',
        ]);
        return { yuv, composited: r.segmentStats.reduce((n, s) => n + s.composited, 0) };
      };
      const fast = await run('over-fast', true);
      const drawn = await run('over-drawn', false);
      assert.equal(fast.composited, 20, 'every frame composited by ffmpeg');
      assert.equal(drawn.composited, 0);
      assert.equal(fast.yuv.length, drawn.yuv.length);
      // Luma: ffmpeg blends in its own integer arithmetic (within 2, as for any overlay); the layers
      // move in every frame, so a frame drawn once and held would differ by far more.
      let lumaMax = 0;
      const frame = (CW * CH * 3) / 2;
      for (let f = 0; f < 20; f++)
        for (let i = 0; i < CW * CH; i++)
          lumaMax = Math.max(lumaMax, Math.abs(fast.yuv[f * frame + i]! - drawn.yuv[f * frame + i]!));
      assert.ok(lumaMax <= 2, `luma differs by up to ${lumaMax}`);
      // And the layers did change from frame to frame.
      const y = (f: number) => drawn.yuv.subarray(f * frame, f * frame + CW * 50);
      assert.notDeepEqual(y(5), y(15));
    } finally {
      server.close();
    }
  });
});

/** A one-scene movie of `duration` s: a 20x20 white square at row `y`, its x on `keys`. */
const slidingSquare = (
  duration: number,
  y: number,
  keys: { time: number; value: number }[],
  scene: Record<string, unknown> = {},
) =>
  valid({
    schema: 'v1',
    width: W,
    height: H,
    fps: FPS,
    scenes: [
      { id: 's', duration, ...scene, elements: [image('a', 20, 20, keys[0]!.value, y, { animate: { x: keys } })] },
    ],
  });

describe('key times against the duration found at render time', () => {
  it('a key past the end of an element that lasts until its scene ends: VALIDATION_ERROR at the key', async () => {
    const movie = slidingSquare(1, 0, [
      { time: 0, value: 0 },
      { time: 1.5, value: 100 },
    ]);
    await assert.rejects(
      renderMovie({ movie, output: join(dir, 'late.mp4'), config }),
      (e: unknown) =>
        e instanceof AppError && e.code === 'VALIDATION_ERROR' && e.path === 'scenes[0].elements[0].animate.x[1].time',
    );
  });
});

describe('a render with no layer drawn (what bench-render measures as everything but drawing)', () => {
  it('draws the same frames and rectangles, showing the background only', async () => {
    const movie = slidingSquare(
      2,
      30,
      [
        { time: 0, value: 10 },
        { time: 1, value: 120 },
      ],
      { background: '#000000' },
    );
    const drawnFile = join(dir, 'drawn.mp4');
    const undrawnFile = join(dir, 'undrawn.mp4');
    const drawn = await renderMovie({ movie, output: drawnFile, config, quality: 'lossless' });
    const undrawn = await renderMovie({ movie, output: undrawnFile, config, quality: 'lossless', layers: false });
    // The same work apart from the layers: the moving second drawn frame by frame, the still one not.
    assert.equal(undrawn.renderedFrames, drawn.renderedFrames);
    assert.ok(drawn.renderedFrames > 10 && drawn.renderedFrames < 20, `${drawn.renderedFrames} frames drawn`);
    const [lit, dark] = [await lumaFrames(drawnFile), await lumaFrames(undrawnFile)];
    assert.equal(dark.length, 20);
    // The square is there when drawn, at its keyframed place ...
    assert.ok(Math.abs(moments(lit[5]!).cx - (10 + 55 + 10)) <= 0.5, `drawn centre ${moments(lit[5]!).cx}`);
    // ... and no pixel of any frame is anything but the black background when not.
    for (const [n, y] of dark.entries())
      assert.ok(
        y.every((v) => v === 16),
        `frame ${n} has a lit pixel`,
      );
  });
});
