/**
 * Visual effects of image and video elements (movie/v1/effects.ts, worker/draw/gpu/effects-shader.ts),
 * rendered with the real ffmpeg and headless-gl on tiny frames and read back from the decoded MP4:
 * blur measured on an edge, the blurred background of a contained picture, rounded corners and a
 * border, colour filters and opacity against their formulas, a chroma key on a green-screen clip
 * made here by ffmpeg, and the ffmpeg-composited path with effects, in one process and in segments.
 * Pixel checks use `quality: 'lossless'` (x264 qp 0): what is left is the YUV round trip.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { validateMovie } from '../../movie/index.ts';
import { sigmaOfRadius } from '../../movie/v1/effects.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameMd5s, frameRgb, pixel } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-effects-test-'));
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const ff = (args: string[]) => runFfmpeg('ffmpeg', ['-v', 'error', '-y', ...args]);
const BT709 = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709'];

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/** A PNG of `w` x `h` whose pixel (x, y) is `rgb(x, y)`. */
async function png(w: number, h: number, rgb: (x: number, y: number) => readonly number[]): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set(rgb(x, y), (y * w + x) * 3);
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

/** The filters' test colours, one block of 40 pixels each. */
const COLOURS = [
  [200, 100, 50],
  [50, 150, 200],
  [128, 128, 128],
  [240, 20, 120],
] as const;

let server: Server;
let base: string;
const served = new Map<string, { type: string; body: Buffer }>();

before(async () => {
  // The green screen: a red square (the subject, 60..99 x 25..64) on pure green, 2 s at 10 fps,
  // converted from RGB with BT.709 and tagged so.
  const screen = join(dir, 'green.png');
  await sharp(
    await png(160, 90, (x, y) => (x >= 60 && x < 100 && y >= 25 && y < 65 ? [255, 0, 0] : [0, 255, 0])),
  ).toFile(screen);
  const greenScreen = (name: string) =>
    ff([
      ...['-loop', '1', '-framerate', '10', '-i', screen, '-t', '2'],
      ...['-vf', 'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p'],
      ...['-c:v', 'libx264', '-qp', '0', ...BT709, join(dir, name)],
    ]);
  // A full-frame clip for the composited path: a smooth moving gradient.
  const backdrop = ff([
    ...['-f', 'lavfi', '-i', 'gradients=s=160x96:r=10:speed=0.05:seed=7', '-t', '20'],
    ...['-c:v', 'libx264', '-qp', '0', '-pix_fmt', 'yuv420p', ...BT709, join(dir, 'backdrop.mp4')],
  ]);
  await Promise.all([greenScreen('green.mp4'), backdrop]);
  served.set('/green.mp4', { type: 'video/mp4', body: readFileSync(join(dir, 'green.mp4')) });
  served.set('/backdrop.mp4', { type: 'video/mp4', body: readFileSync(join(dir, 'backdrop.mp4')) });
  // A vertical edge: black left of x = 80, white from it.
  served.set('/edge.png', {
    type: 'image/png',
    body: await png(160, 45, (x) => (x < 80 ? [0, 0, 0] : [255, 255, 255])),
  });
  // A 16:9 checkerboard of 4-pixel squares: as busy as a picture gets.
  served.set('/checker.png', {
    type: 'image/png',
    body: await png(160, 90, (x, y) => ((Math.floor(x / 4) + Math.floor(y / 4)) % 2 ? [255, 255, 255] : [0, 0, 0])),
  });
  // The same at 90 x 50 (1.8:1): contained in a 90-pixel-wide box it is drawn texel for pixel.
  served.set('/checker-90.png', {
    type: 'image/png',
    body: await png(90, 50, (x, y) => ((Math.floor(x / 4) + Math.floor(y / 4)) % 2 ? [255, 255, 255] : [0, 0, 0])),
  });
  served.set('/red.png', { type: 'image/png', body: await png(100, 60, () => [255, 0, 0]) });
  served.set('/colours.png', { type: 'image/png', body: await png(160, 24, (x) => COLOURS[Math.floor(x / 40)]!) });
  server = createServer((req, res) => {
    const hit = served.get(req.url ?? '');
    if (!hit) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': hit.type }).end(hit.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server?.close();
  // KEEP_EFFECTS=1 keeps the rendered files, to look at.
  if (!process.env.KEEP_EFFECTS) rmSync(dir, { recursive: true, force: true });
});

/** One scene of `elements`, 1 s at 10 fps, rendered losslessly; frame 0 as RGB. */
async function still(name: string, width: number, height: number, background: string, elements: unknown[]) {
  const movie = valid({
    schema: 'v1',
    width,
    height,
    fps: 10,
    scenes: [{ id: 's', duration: 1, background, elements }],
  });
  const output = join(dir, `${name}.mp4`);
  await renderMovie({ movie, output, config, quality: 'lossless' });
  return frameRgb(output, 0);
}

/** Distance between the 10% and 90% crossings of a rising profile (linear between samples). */
function edgeWidth(profile: number[]): number {
  const lo = Math.min(...profile);
  const hi = Math.max(...profile);
  const cross = (level: number) => {
    const v = lo + level * (hi - lo);
    for (let i = 1; i < profile.length; i++)
      if (profile[i]! >= v) return i - 1 + (v - profile[i - 1]!) / (profile[i]! - profile[i - 1]!);
    return Number.NaN;
  };
  return cross(0.9) - cross(0.1);
}

describe('blur', () => {
  it('widens an edge as a gaussian of sigma 0.57735 * radius + 0.5 does', async () => {
    const edge = (id: string, y: number, blur: number) => ({
      id,
      type: 'image',
      src: `${base}/edge.png`,
      width: 160,
      height: 45,
      fit: 'fill',
      position: { x: 0, y },
      ...(blur ? { blur } : {}),
    });
    // Sharp, radius 6 (full-resolution passes) and radius 20 (passes at a third of the size).
    const rgb = await still('blur', 160, 136, '#000000', [edge('a', 0, 0), edge('b', 45, 6), edge('c', 90, 20)]);
    const profile = (y: number) => Array.from({ length: 160 }, (_, x) => pixel(rgb, 160, x, y)[1]);
    const sharpWidth = edgeWidth(profile(22));
    assert.ok(sharpWidth <= 1, `unblurred edge ${sharpWidth} px`);
    // A gaussian's 10-90% width is 2 * 1.2816 sigma. The picture's own edge (a step) adds nothing;
    // the tolerance covers 8-bit targets and, at radius 20, the extra blur of scaling down and back
    // by k = 3 (a box of k and a tent of k: variance k²/12 + k²/6, +2.5% on sigma).
    for (const [y, radius, tolerance] of [
      [67, 6, 0.05],
      [112, 20, 0.06],
    ] as const) {
      const expected = 2 * 1.2816 * sigmaOfRadius(radius);
      const measured = edgeWidth(profile(y));
      assert.ok(
        Math.abs(measured - expected) <= tolerance * expected,
        `radius ${radius}: 10-90% width ${measured.toFixed(2)} px, gaussian ${expected.toFixed(2)} px`,
      );
      // Centred on the edge: half way up at x = 79.5 (between the last black and first white pixel).
      const p = profile(y);
      assert.ok(Math.abs(p[79]! + p[80]! - 255) <= 12, `midpoint ${p[79]}, ${p[80]}`);
    }
  });
});

/** Standard deviation of the green channel over a square of `n` pixels at (x, y). */
function localSpread(rgb: Buffer, width: number, x0: number, y0: number, n: number): number {
  const vs: number[] = [];
  for (let y = y0; y < y0 + n; y++) for (let x = x0; x < x0 + n; x++) vs.push(pixel(rgb, width, x, y)[1]);
  const mean = vs.reduce((a, b) => a + b, 0) / vs.length;
  return Math.sqrt(vs.reduce((a, b) => a + (b - mean) ** 2, 0) / vs.length);
}

describe('blurred background', () => {
  it('fills the empty part of the box of a contained 16:9 picture in a 9:16 frame, blurred', async () => {
    const el = { id: 'pic', type: 'image', src: `${base}/checker-90.png`, fit: 'contain' };
    const [plain, filled] = await Promise.all([
      still('contain', 90, 160, '#ff00ff', [el]),
      still('contain-bg', 90, 160, '#ff00ff', [{ ...el, background: { blur: 12 } }]),
    ]);
    // Contained: 90 x 50 centred, rows 55 to 104; above and below is the box's empty part.
    for (const y of [4, 30, 140]) {
      const [r, g, b] = pixel(plain, 90, 45, y);
      assert.ok(r > 250 && g < 5 && b > 250, `no fill at row ${y}: (${r},${g},${b})`);
    }
    for (const [x, y] of [
      [10, 10],
      [40, 30],
      [60, 130],
    ] as const) {
      const [r, g, b] = pixel(filled, 90, x, y);
      // The checkerboard blurred: its mean grey, not the scene's magenta, and flat.
      assert.ok(Math.abs(r - 128) < 30 && Math.abs(g - 128) < 30 && Math.abs(b - 128) < 30, `fill (${r},${g},${b})`);
      assert.ok(localSpread(filled, 90, x, y, 8) < 6, `fill at ${x},${y} is flat`);
    }
    // The picture itself stays sharp, and exactly as without the background.
    assert.ok(localSpread(filled, 90, 40, 70, 8) > 100, 'the picture is sharp');
    for (let y = 56; y < 104; y++)
      for (let x = 0; x < 90; x++)
        assert.deepEqual(pixel(filled, 90, x, y), pixel(plain, 90, x, y), `picture pixel ${x},${y}`);
  });
});

describe('rounded corners and border', () => {
  it('masks the corners anti-aliased and draws the border inside the edge along them', async () => {
    const rgb = await still('corners', 160, 90, '#0000ff', [
      {
        id: 'pic',
        type: 'image',
        src: `${base}/red.png`,
        width: 100,
        height: 60,
        fit: 'fill',
        position: { x: 30, y: 15 },
        cornerRadius: 20,
        border: { width: 4, color: '#00ff00' },
      },
    ]);
    const near = (a: number[], b: number[], t = 12) => a.every((v, i) => Math.abs(v - b[i]!) <= t);
    const at = (x: number, y: number) => pixel(rgb, 160, x, y);
    // The corner pixel is outside the rounded rectangle: the scene's blue.
    for (const [x, y] of [
      [30, 15],
      [33, 18],
      [129, 74],
    ] as const)
      assert.ok(near(at(x, y), [0, 0, 255]), `corner ${x},${y}: ${at(x, y)}`);
    // Inside: the picture.
    for (const [x, y] of [
      [80, 45],
      [40, 45],
      [80, 22],
    ] as const)
      assert.ok(near(at(x, y), [255, 0, 0]), `inner ${x},${y}: ${at(x, y)}`);
    // The border: 4 green pixels inside each straight edge (x 30..33, rows 15..18), then red.
    for (const [x, y] of [
      [31, 45],
      [32, 45],
      [128, 45],
      [80, 16],
      [80, 73],
    ] as const)
      assert.ok(near(at(x, y), [0, 255, 0], 40), `border ${x},${y}: ${at(x, y)}`);
    assert.ok(near(at(36, 45), [255, 0, 0], 40), `past the border: ${at(36, 45)}`);
    // Along the corner: 2 pixels inside the arc (centre 50, 35; radius 20) is border.
    const d = Math.SQRT1_2 * 18;
    assert.ok(near(at(Math.floor(50 - d), Math.floor(35 - d)), [0, 255, 0], 60), 'border along the arc');
  });
});

/** The documented filter formulas (CSS filter functions), on 0..255 RGB. */
function filtered(
  c: readonly number[],
  f: { brightness?: number; contrast?: number; saturation?: number; grayscale?: number },
) {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  let [r, g, b] = c.map((v) => v / 255) as [number, number, number];
  const b1 = f.brightness ?? 1;
  [r, g, b] = [r, g, b].map((v) => clamp(v * b1)) as [number, number, number];
  const k = f.contrast ?? 1;
  [r, g, b] = [r, g, b].map((v) => clamp((v - 0.5) * k + 0.5)) as [number, number, number];
  const sat = (s: number) => {
    [r, g, b] = [
      clamp((0.213 + 0.787 * s) * r + (0.715 - 0.715 * s) * g + (0.072 - 0.072 * s) * b),
      clamp((0.213 - 0.213 * s) * r + (0.715 + 0.285 * s) * g + (0.072 - 0.072 * s) * b),
      clamp((0.213 - 0.213 * s) * r + (0.715 - 0.715 * s) * g + (0.072 + 0.928 * s) * b),
    ];
  };
  sat(f.saturation ?? 1);
  sat(1 - (f.grayscale ?? 0));
  return [r, g, b].map((v) => v * 255);
}

describe('colour filters and opacity', () => {
  it('give the documented formulas on known colours', async () => {
    const cases = [
      { brightness: 1.4 },
      { contrast: 0.5 },
      { saturation: 1.8 },
      { grayscale: 1 },
      { brightness: 0.8, contrast: 1.3, saturation: 0.5, grayscale: 0.25 },
    ];
    const rgb = await still('filters', 160, 144, '#000000', [
      ...cases.map((filters, i) => ({
        id: `f${i}`,
        type: 'image',
        src: `${base}/colours.png`,
        width: 160,
        height: 24,
        fit: 'fill',
        position: { x: 0, y: 24 * i },
        filters,
      })),
      // Opacity 0.4 over the black background: 40% of each colour.
      {
        id: 'half',
        type: 'image',
        src: `${base}/colours.png`,
        width: 160,
        height: 24,
        fit: 'fill',
        position: { x: 0, y: 120 },
        opacity: 0.4,
      },
    ]);
    // The YUV round trip of 8-bit limited range (and x264 lossless): within 3 of the formula.
    const off: string[] = [];
    const check = (want: number[], x: number, y: number, what: string) => {
      const got = pixel(rgb, 160, x, y);
      if (!got.every((v, j) => Math.abs(v - want[j]!) <= 3)) off.push(`${what}: ${got} vs ${want.map(Math.round)}`);
    };
    for (const [i, f] of cases.entries())
      for (const [j, c] of COLOURS.entries())
        check(filtered(c, f), 40 * j + 20, 24 * i + 12, `${JSON.stringify(f)} on ${c}`);
    for (const [j, c] of COLOURS.entries())
      check(
        c.map((v) => v * 0.4),
        40 * j + 20,
        132,
        `opacity 0.4 on ${c}`,
      );
    assert.deepEqual(off, []);
  });
});

describe('chroma key', () => {
  it('removes the key colour of a green-screen clip and keeps the subject', async () => {
    const rgb = await still('key', 160, 90, '#0000ff', [
      {
        id: 'clip',
        type: 'video',
        src: `${base}/green.mp4`,
        fit: 'fill',
        chromaKey: { color: '#00ff00', similarity: 0.1, smoothness: 0.08 },
      },
    ]);
    const source = await frameRgb(join(dir, 'green.mp4'), 0);
    const at = (x: number, y: number) => pixel(rgb, 160, x, y);
    const near = (a: number[], b: number[], t = 6) => a.every((v, i) => Math.abs(v - b[i]!) <= t);
    // The green is gone (the scene's blue shows) everywhere but the subject, red at 60..99 x 25..64.
    for (const [x, y] of [
      [5, 5],
      [150, 80],
      [40, 45],
      [120, 45],
      [80, 12],
    ] as const)
      assert.ok(near(at(x, y), [0, 0, 255]), `key area ${x},${y}: ${at(x, y)}`);
    // The subject as the clip shows it (its chroma, scaled down to 4:2:0 by ffmpeg, bleeds a few
    // pixels past its edges in the source itself).
    for (const [x, y] of [
      [80, 45],
      [63, 28],
      [96, 61],
    ] as const) {
      assert.ok(near(at(x, y), pixel(source, 160, x, y), 4), `subject ${x},${y}: ${at(x, y)}`);
      assert.ok(near(at(x, y), [255, 0, 0], 40), `subject ${x},${y} is red: ${at(x, y)}`);
    }
  });
});

describe('the ffmpeg-composited path with effects', () => {
  const W = 160;
  const H = 96;
  const results: Record<string, { composited: number; md5s: string[]; file: string }> = {};
  const render = async (name: string, movie: ReturnType<typeof valid>, more: Record<string, unknown>) => {
    const file = join(dir, `${name}.mp4`);
    const r = await renderMovie({ movie, output: file, config, quality: 'lossless', ...more });
    results[name] = {
      composited: r.segmentStats.reduce((n, s) => n + s.composited, 0),
      md5s: await frameMd5s(file),
      file,
    };
  };
  before(async () => {
    // 20 s, two encoder chunks of 10 s: the first over a plain backdrop clip with an image with
    // effects over it (composited), the second with an effect on the clip itself (drawn).
    const backdrop = (more: Record<string, unknown> = {}) => ({
      id: 'bg',
      type: 'video',
      src: `${base}/backdrop.mp4`,
      fit: 'fill',
      ...more,
    });
    const badge = {
      id: 'badge',
      type: 'image',
      src: `${base}/checker.png`,
      width: 64,
      height: 36,
      position: { x: 8, y: 8 },
      cornerRadius: 10,
      border: { width: 2, color: '#ffcc00' },
      blur: 2,
      filters: { saturation: 0 },
    };
    const keyed = {
      id: 'key',
      type: 'video',
      src: `${base}/green.mp4`,
      width: 80,
      height: 45,
      position: { x: 76, y: 48 },
      loop: true,
      chromaKey: {},
    };
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 10,
      scenes: [
        { id: 'a', duration: 10, elements: [backdrop(), badge] },
        {
          id: 'b',
          duration: 10,
          elements: [
            backdrop({ id: 'bg2', filters: { grayscale: 1 }, trimStart: 10 }),
            { ...badge, id: 'badge2' },
            keyed,
          ],
        },
      ],
    });
    await render('one', movie, {});
    await render('two', movie, { parallel: 2 });
    await render('drawn', movie, { composite: false });
  });

  it('composites the chunk whose clip has no effect and draws the one whose clip has', () => {
    assert.equal(results.one!.md5s.length, 200);
    assert.equal(results.one!.composited, 100);
    assert.equal(results.two!.composited, 100);
    assert.equal(results.drawn!.composited, 0);
  });

  it('gives the same frames in two segments as in one process', () => {
    assert.deepEqual(results.two!.md5s, results.one!.md5s);
  });

  it('composites the badge as the renderer draws it', async () => {
    // The second chunk is drawn in both renders: the same frames.
    assert.deepEqual(results.one!.md5s.slice(100), results.drawn!.md5s.slice(100));
    // The first: ffmpeg's overlay blends in its own integer arithmetic and 4:2:0 convention
    // (media-elements.test.ts): luma within 2, chroma within 2 wherever a 2x2 block is flat.
    const yuv = async (file: string) =>
      runFfmpeg('ffmpeg', [
        '-v',
        'error',
        '-i',
        file,
        '-frames:v',
        '100',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'yuv420p',
        '-',
      ]);
    const [a, b] = await Promise.all([yuv(results.one!.file), yuv(results.drawn!.file)]);
    const frame = (W * H * 3) / 2;
    const cw = W / 2;
    let lumaMax = 0;
    const chromaOff: string[] = [];
    // The badge's rounded corners (10 px squares): partly covered pixels whose blend can give a
    // flat luma block by chance, where the two 4:2:0 conventions differ (see above).
    const corner = (x: number, y: number) =>
      (x < 18 || x >= 62) && x >= 8 && x < 72 && (y < 18 || y >= 34) && y >= 8 && y < 44;
    for (let f = 0; f < 100; f++) {
      const at = f * frame;
      for (let i = 0; i < W * H; i++) lumaMax = Math.max(lumaMax, Math.abs(a[at + i]! - b[at + i]!));
      for (let y = 0; y < H / 2; y++)
        for (let x = 0; x < cw; x++) {
          const block = [0, 1, W, W + 1].map((o) => b[at + 2 * y * W + 2 * x + o]!);
          if (Math.max(...block) - Math.min(...block) > 2 || corner(2 * x, 2 * y) || corner(2 * x + 1, 2 * y + 1))
            continue;
          for (const plane of [W * H, W * H + (W * H) / 4]) {
            const j = at + plane + y * cw + x;
            if (Math.abs(a[j]! - b[j]!) > 2) chromaOff.push(`frame ${f} (${2 * x}, ${2 * y}): ${a[j]} vs ${b[j]}`);
          }
        }
    }
    assert.ok(lumaMax <= 2, `luma differs by up to ${lumaMax}`);
    assert.deepEqual(chromaOff.slice(0, 10), []);
  });

  it('draws the effects in both chunks', async () => {
    for (const n of [5, 150]) {
      const rgb = await frameRgb(results.one!.file, n);
      const at = (x: number, y: number) => pixel(rgb, W, x, y);
      // The badge: grey (saturation 0) inside, its rounded corner showing the clip, its yellow border.
      const [r, g, b] = at(40, 26);
      assert.ok(Math.max(r, g, b) - Math.min(r, g, b) <= 6, `frame ${n}: badge grey (${r},${g},${b})`);
      const border = at(40, 8);
      assert.ok(border[0] > 200 && border[1] > 170 && border[2] < 80, `frame ${n}: border ${border}`);
    }
    // The second chunk: the clip in grey, the keyed clip's green gone (the grey clip shows), its red subject kept.
    const rgb = await frameRgb(results.one!.file, 150);
    const [r, g, b] = pixel(rgb, W, 150, 90);
    assert.ok(Math.max(r, g, b) - Math.min(r, g, b) <= 6, `grey clip where the key was (${r},${g},${b})`);
    const subject = pixel(rgb, W, 116, 70);
    assert.ok(subject[0] > 200 && subject[1] < 60 && subject[2] < 60, `subject ${subject}`);
  });
});
