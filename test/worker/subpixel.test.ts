/**
 * Motion by fractions of a pixel, and zooms that stay sharp (worker/draw/gpu/layer-edges.ts,
 * worker/prepare/zoom-rasters.ts), measured on decoded frames of lossless renders (640x360, 30 fps):
 *
 *   - a box drifting 10 px in 2 s (a picture, an effect layer, a clip, a keyframed crop's side, and
 *     vertically): each edge, the 50% crossing of the luma profile across it (linearly
 *     interpolated between pixel centres), within 0.3 px of its keyframed place on every frame.
 *     With edges on pixel boundaries (GL filling a pixel whose centre is inside) the error reaches
 *     0.5 px; with exact coverage what is left is the interpolation's own error, under 0.09 px,
 *     and luma's rounding;
 *   - a shape and an image scaling from 1 to 1.05 in 2 s (0.2 px wider a frame): measured width and
 *     height grow on every frame by at least 0.05 px (a quarter of the step: more than the
 *     rounding's noise, far less than the step), where snapped edges grow 2 px at a time with
 *     unchanged frames between;
 *   - a title zoomed to 2x: its 10-90% edge width at 2x is that of the same text set at twice the
 *     size, within 0.5 px (a raster drawn at 1x and magnified has edges about twice as wide);
 *   - a picture covering the whole frame keeps its border pixels exactly (no soft edge on a side
 *     that is on a pixel boundary).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateMovie } from '../../movie/index.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { solidPngBytes } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-subpixel-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const W = 640;
const H = 360;
const FPS = 30;
/** Black and white in limited-range luma, and half-way between. */
const BLACK = 16;
const WHITE = 235;
const MID = (BLACK + WHITE) / 2;

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/** Every frame's Y, U and V planes, read straight from yuv420p. */
async function yuvFrames(file: string): Promise<{ y: Uint8Array; u: Uint8Array; v: Uint8Array }[]> {
  const raw = await runFfmpeg('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-']);
  const size = (W * H * 3) / 2;
  const c = (W / 2) * (H / 2);
  const out = [];
  for (let o = 0; o + size <= raw.length; o += size)
    out.push({
      y: raw.subarray(o, o + W * H),
      u: raw.subarray(o + W * H, o + W * H + c),
      v: raw.subarray(o + W * H + c, o + size),
    });
  return out;
}

/** Luma along row `r` (or column `c`) of a frame, from `from` to `to`. */
const row = (y: Uint8Array, r: number, from = 0, to = W) => Array.from(y.subarray(r * W + from, r * W + to));
const column = (y: Uint8Array, c: number, from = 0, to = H) =>
  Array.from({ length: to - from }, (_, i) => y[(from + i) * W + c]!);

/**
 * Where a profile first rises through `mid` and last falls through it, in pixels from its start
 * (pixel i's centre at i + 0.5), interpolated linearly between the two pixels either side.
 */
function edges(p: number[], mid = MID): { rise: number; fall: number } {
  let rise = Number.NaN;
  let fall = Number.NaN;
  for (let i = 0; i + 1 < p.length; i++) {
    const [a, b] = [p[i]!, p[i + 1]!];
    const at = i + 0.5 + (mid - a) / (b - a);
    if (a < mid && b >= mid && Number.isNaN(rise)) rise = at;
    if (a >= mid && b < mid) fall = at;
  }
  return { rise, fall };
}

/** A white PNG (fill-fitted to any size) as a data: URI. */
let white: string;
before(async () => {
  white = `data:image/png;base64,${(await solidPngBytes('#ffffff', 8)).toString('base64')}`;
});

const box = (id: string, x: number, y: number, w: number, h: number, more: Record<string, unknown> = {}) => ({
  id,
  type: 'image',
  src: white,
  fit: 'fill',
  width: w,
  height: h,
  position: { x, y },
  ...more,
});

/** 10 px in `sec` seconds, linearly. */
const drift = (from: number, sec = 2) => [
  { time: 0, value: from },
  { time: sec, value: from + 10 },
];

describe('layers drifting by fractions of a pixel', () => {
  let frames: Awaited<ReturnType<typeof yuvFrames>>;
  let server: Server;
  before(async () => {
    // A white clip for the video layer, served locally.
    const clip = join(dir, 'white.mp4');
    await runFfmpeg('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=white:s=40x40:r=30', '-t', '2'],
      ...['-c:v', 'libx264', '-qp', '0', '-pix_fmt', 'yuv420p', clip],
    ]);
    const body = readFileSync(clip);
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(body));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const src = `http://127.0.0.1:${(server.address() as AddressInfo).port}/white.mp4`;
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: FPS,
      scenes: [
        {
          id: 'drift',
          duration: 2,
          background: '#000000',
          elements: [
            box('plain', 100, 20, 40, 40, { animate: { x: drift(100) } }),
            // Rounded corners: an effect layer (effects-shader.ts); its middle row is measured.
            box('effect', 100, 80, 40, 40, { cornerRadius: 6, animate: { x: drift(100) } }),
            {
              id: 'clip',
              type: 'video',
              src,
              muted: true,
              width: 40,
              height: 40,
              position: { x: 100, y: 140 },
              animate: { x: drift(100) },
            },
            // Still, its crop's right side moving 10 px: the left side stays on its pixel boundary.
            box('crop', 100, 200, 80, 40, {
              animate: {
                crop: [
                  { time: 0, value: { x: 0, y: 0, width: 40, height: 40 } },
                  { time: 2, value: { x: 0, y: 0, width: 50, height: 40 } },
                ],
              },
            }),
            box('down', 300, 20, 40, 40, { animate: { y: drift(20) } }),
          ],
        },
      ],
    });
    const out = join(dir, 'drift.mp4');
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    frames = await yuvFrames(out);
  });
  after(() => server?.close());

  it('puts every edge within 0.3 px of its keyframed place on every frame', () => {
    assert.equal(frames.length, 2 * FPS);
    const rows: [string, number, number][] = [
      ['plain', 40, 100],
      ['effect', 100, 100],
      ['clip', 160, 100],
    ];
    let worst = 0;
    const report: string[] = [];
    for (const [f, { y }] of frames.entries()) {
      const moved = (10 * f) / FPS / 2;
      const check = (name: string, got: number, want: number) => {
        const err = Math.abs(got - want);
        worst = Math.max(worst, err);
        if (err > 0.3) report.push(`frame ${f} ${name}: ${got.toFixed(3)}, keyframed ${want.toFixed(3)}`);
      };
      for (const [name, r, x] of rows) {
        const e = edges(row(y, r, 0, 250));
        check(`${name} left`, e.rise, x + moved);
        check(`${name} right`, e.fall, x + 40 + moved);
      }
      const c = edges(row(y, 220, 0, 250));
      check('crop left', c.rise, 100);
      check('crop right', c.fall, 140 + moved);
      const d = edges(column(y, 320));
      check('down top', d.rise, 20 + moved);
      check('down bottom', d.fall, 60 + moved);
    }
    assert.deepEqual(report, [], `largest error ${worst.toFixed(3)} px`);
    process.stdout.write(`# drift: largest edge error ${worst.toFixed(3)} px\n`);
  });
});

describe('a slow zoom', () => {
  let frames: Awaited<ReturnType<typeof yuvFrames>>;
  before(async () => {
    const grow = {
      scale: [
        { time: 0, value: 1 },
        { time: 2, value: 1.05 },
      ],
    };
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: FPS,
      scenes: [
        {
          id: 'scale',
          duration: 2,
          background: '#000000',
          elements: [
            {
              id: 'shape',
              type: 'shape',
              shape: 'rectangle',
              fill: '#ffffff',
              width: 240,
              height: 160,
              position: { x: 40, y: 100 },
              animate: grow,
            },
            box('image', 360, 100, 240, 160, { animate: grow }),
          ],
        },
      ],
    });
    const out = join(dir, 'scale.mp4');
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    frames = await yuvFrames(out);
  });

  it('grows a shape and an image on every frame, as wide as keyframed within 0.3 px', () => {
    assert.equal(frames.length, 2 * FPS);
    for (const [name, cx] of [
      ['shape', 160],
      ['image', 480],
    ] as const) {
      const widths: number[] = [];
      const heights: number[] = [];
      for (const { y } of frames) {
        const across = edges(row(y, 180, cx - 150, cx + 150));
        const down = edges(column(y, cx, 180 - 100, 180 + 100));
        widths.push(across.fall - across.rise);
        heights.push(down.fall - down.rise);
      }
      for (const [what, sizes, size] of [
        ['width', widths, 240],
        ['height', heights, 160],
      ] as const) {
        const steps = sizes.slice(1).map((v, i) => v - sizes[i]!);
        const least = Math.min(...steps);
        const errors = sizes.map((v, f) => Math.abs(v - size * (1 + (0.05 * f) / FPS / 2)));
        const list = sizes.map((v) => v.toFixed(2)).join(' ');
        assert.ok(least >= 0.05, `${name} ${what} grows at least 0.05 px a frame: least ${least.toFixed(3)} (${list})`);
        assert.ok(Math.max(...errors) <= 0.3, `${name} ${what} as keyframed: ${list}`);
        process.stdout.write(
          `# ${name} ${what}: steps ${least.toFixed(3)}..${Math.max(...steps).toFixed(3)} px, largest error ${Math.max(...errors).toFixed(3)}\n`,
        );
      }
    }
  });
});

/**
 * The 10-90% rise, in pixels, of every edge in a frame that goes from black to white across a
 * row (interpolated between pixel centres), sorted.
 */
function edgeWidths(y: Uint8Array): number[] {
  const [lo, hi] = [BLACK + 0.1 * (WHITE - BLACK), BLACK + 0.9 * (WHITE - BLACK)];
  const out: number[] = [];
  for (let r = 0; r < H; r++) {
    const p = row(y, r);
    for (let i = 0; i + 1 < W; i++) {
      if (!(p[i]! <= lo && p[i + 1]! > lo)) continue;
      let j = i + 1;
      while (j < W && p[j]! < hi && p[j]! >= p[j - 1]!) j++;
      if (j >= W || p[j]! < hi) continue;
      const x10 = i + 0.5 + (lo - p[i]!) / (p[i + 1]! - p[i]!);
      const x90 = j - 0.5 + (hi - p[j - 1]!) / (p[j]! - p[j - 1]!);
      out.push(x90 - x10);
    }
  }
  return out.sort((a, b) => a - b);
}

const median = (a: number[]) => a[a.length >> 1]!;

describe('a title zoomed to 2x', () => {
  it('has the edges of the same text set at twice the size (median 10-90% rise within 0.5 px), and at 1x its own', async () => {
    const text = (id: string, fontSize: number, more: Record<string, unknown> = {}) => ({
      id,
      type: 'text',
      text: 'HILT',
      fontSize,
      fontWeight: 700,
      color: '#ffffff',
      position: 'center',
      ...more,
    });
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: FPS,
      scenes: [
        {
          id: 'zoom',
          duration: 2,
          background: '#000000',
          elements: [
            text('zoomed', 40, {
              animate: {
                scale: [
                  { time: 0, value: 1 },
                  { time: 1, value: 2 },
                ],
              },
            }),
          ],
        },
        { id: 'large', duration: 0.1, background: '#000000', elements: [text('large', 80)] },
        { id: 'small', duration: 0.1, background: '#000000', elements: [text('small', 40)] },
      ],
    });
    const out = join(dir, 'zoom.mp4');
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    const frames = await yuvFrames(out);
    assert.equal(frames.length, 2 * FPS + 6);
    const zoomed = edgeWidths(frames[2 * FPS - 1]!.y);
    const large = edgeWidths(frames[2 * FPS]!.y);
    assert.ok(zoomed.length > 100 && large.length > 100, `edges found: ${zoomed.length}, ${large.length}`);
    const [z, l] = [median(zoomed), median(large)];
    process.stdout.write(`# zoom: median edge width at 2x ${z.toFixed(3)} px, text set at 2x ${l.toFixed(3)} px\n`);
    assert.ok(Math.abs(z - l) <= 0.5, `edge width zoomed ${z.toFixed(3)} px, set at twice the size ${l.toFixed(3)} px`);
    // At scale 1 the layer draws its own raster, exactly where the unzoomed text is.
    assert.ok(Buffer.from(frames[0]!.y).equals(Buffer.from(frames[2 * FPS + 3]!.y)), 'frame 0 is the text at 1x');
  });
});

describe('a picture covering the frame', () => {
  it('keeps its border pixels exactly, under a layer drifting by fractions of a pixel', async () => {
    const bg = `data:image/png;base64,${(await solidPngBytes('#4080c0', 8)).toString('base64')}`;
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: FPS,
      scenes: [
        {
          id: 'full',
          duration: 0.5,
          background: '#ff0000',
          elements: [
            { id: 'bg', type: 'image', src: bg, fit: 'fill', width: W, height: H, position: { x: 0, y: 0 } },
            box('moving', 100, 100, 40, 40, { animate: { x: drift(100, 0.5) } }),
          ],
        },
      ],
    });
    const out = join(dir, 'full.mp4');
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    const frames = await yuvFrames(out);
    const [cw, ch] = [W / 2, H / 2];
    for (const [f, { y, u, v }] of frames.entries()) {
      // Every pixel of the outer ring is the picture's inside colour (the red background never shows).
      const [y0, u0, v0] = [y[10 * W + 10]!, u[5 * cw + 5]!, v[5 * cw + 5]!];
      const bad: string[] = [];
      for (let x = 0; x < W; x++)
        for (const r of [0, H - 1]) if (y[r * W + x] !== y0) bad.push(`Y ${x},${r}: ${y[r * W + x]}`);
      for (let r = 0; r < H; r++)
        for (const x of [0, W - 1]) if (y[r * W + x] !== y0) bad.push(`Y ${x},${r}: ${y[r * W + x]}`);
      for (let x = 0; x < cw; x++)
        for (const r of [0, ch - 1]) {
          if (u[r * cw + x] !== u0) bad.push(`U ${x},${r}`);
          if (v[r * cw + x] !== v0) bad.push(`V ${x},${r}`);
        }
      for (let r = 0; r < ch; r++)
        for (const x of [0, cw - 1]) {
          if (u[r * cw + x] !== u0) bad.push(`U ${x},${r}`);
          if (v[r * cw + x] !== v0) bad.push(`V ${x},${r}`);
        }
      assert.deepEqual(bad.slice(0, 10), [], `frame ${f}: ${bad.length} border samples differ from ${y0}`);
    }
  });
});
