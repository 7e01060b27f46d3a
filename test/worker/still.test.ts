/**
 * Stills (output.format png, jpeg, webp) and a video's poster and thumbnail, on the real renderer
 * and ffmpeg: a still is the video's frame at its time, drawn by the same renderer and read back
 * before any codec, so the only difference from the MP4's decoded frame is H.264's loss.
 *
 * Tolerance: the MP4 is H.264 at the default quality (CRF-style, 8-bit yuv420p). On flat colour
 * regions and hard edges at this size its reconstruction error is a few code values at edges and
 * ~0 on flats, so the mean absolute difference per channel over the frame stays well under 3 (one
 * percent of the range); a wrong frame (the sliding square 1/10 s away moves 13+ px) or a wrong
 * matrix (BT.601 shifts saturated colours by 10-30 values) raises it far above that.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { validateMovie } from '../../movie/index.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import { posterFiles } from '../../worker/encode/poster.ts';
import { encodeThumbnail, frameIndexAt } from '../../worker/encode/still-image.ts';
import type { RenderProgress, WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { near, pixel } from './media.ts';

const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const dir = mkdtempSync(join(tmpdir(), 'fw-still-test-'));
after(() => (process.env.KEEP_STILL_TEST ? undefined : rmSync(dir, { recursive: true, force: true })));

const W = 384;
const H = 216;
const FPS = 10;
/** Mid-slide: the blue square moves ~25 px a frame here, so a neighbouring frame differs clearly. */
const TIME = 1.3;

async function solidPng(color: string): Promise<string> {
  const bytes = await sharp({ create: { width: 32, height: 32, channels: 4, background: color } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

/** Two one-second scenes: a red square and text on blue, then a blue square sliding in on green. */
async function movie(output: Record<string, unknown>): Promise<unknown> {
  const doc = {
    schema: 'v1',
    width: W,
    height: H,
    fps: FPS,
    output,
    scenes: [
      {
        id: 'first',
        duration: 1,
        background: '#204080',
        elements: [
          {
            id: 'red',
            type: 'image',
            src: await solidPng('#ff0000'),
            width: 64,
            height: 64,
            position: { x: 20, y: 20 },
          },
          { id: 'hi', type: 'text', text: 'HI', fontSize: 40, color: '#ffffff', position: { x: 220, y: 120 } },
        ],
      },
      {
        id: 'second',
        duration: 1,
        background: '#008000',
        elements: [
          {
            id: 'blue',
            type: 'image',
            src: await solidPng('#0000ff'),
            width: 80,
            height: 80,
            position: { x: 150, y: 60 },
            animation: { preset: 'slide-in-left', duration: 0.8 },
          },
          {
            id: 'title',
            type: 'text',
            text: 'Framewright',
            fontSize: 28,
            color: '#ffff00',
            position: { x: 20, y: 170 },
          },
          {
            id: 'mark',
            type: 'image',
            src: await solidPng('#ff00ff'),
            width: 40,
            height: 40,
            position: { x: 320, y: 16 },
          },
        ],
      },
    ],
  };
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
}

/**
 * Frame `n` of a video as RGB: BT.709 limited range to full, chroma interpolated, accurately
 * rounded. The stills and posters are converted so; two scalers' rounding (media.ts frameRgb's
 * defaults) would alone differ by about one code value everywhere.
 */
function frameRgb(file: string, n: number): Promise<Buffer> {
  return runFfmpeg('ffmpeg', [
    ...['-v', 'error', '-i', file, '-vf'],
    `select=eq(n\\,${n}),scale=in_color_matrix=bt709:in_range=tv:out_range=pc:flags=bicubic+accurate_rnd+full_chroma_int`,
    ...['-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
  ]);
}

/** Mean absolute difference per channel of two RGB frames of the same size. */
function meanDiff(a: Buffer, b: Buffer): number {
  assert.equal(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

async function decodedRgb(file: string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe('stills and posters', () => {
  const video = join(dir, 'movie.mp4');
  const files = posterFiles(video);
  const stills: Record<string, string> = {};
  const stillEvents: RenderProgress[] = [];
  let frames: Buffer[];

  before(async () => {
    await renderMovie({
      movie: (await movie({ format: 'mp4', posterTime: TIME })) as never,
      output: video,
      config,
      posterFiles: files,
    });
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      stills[format] = join(dir, `still.${format}`);
      await renderMovie({
        movie: (await movie({ format, time: TIME })) as never,
        output: stills[format]!,
        config,
        ...(format === 'png'
          ? { posterFiles: posterFiles(stills[format]!), onProgress: (e: RenderProgress) => stillEvents.push(e) }
          : {}),
      });
    }
    const at = frameIndexAt(TIME, FPS, 20);
    assert.equal(at, 13);
    frames = await Promise.all([12, 13, 14].map((n) => frameRgb(video, n)));
  });

  it("a PNG still is the video's frame at its time (mean abs diff < 3), not its neighbours'", async (t) => {
    const png = await decodedRgb(stills.png!);
    assert.deepEqual([png.width, png.height], [W, H]);
    const [before12, at13, after14] = frames.map((f) => meanDiff(png.data, f));
    t.diagnostic(
      `mean abs diff per channel to frames 12, 13, 14: ${[before12, at13, after14].map((d) => d!.toFixed(3))}`,
    );
    assert.ok(at13! < 3, `mean abs diff to frame 13: ${at13}`);
    assert.ok(before12! > at13! * 2 && before12! > 1, `frame 12 differs more: ${before12} vs ${at13}`);
    assert.ok(after14! > at13! * 2 && after14! > 1, `frame 14 differs more: ${after14} vs ${at13}`);
  });

  it('a still draws known colours where they are: the blue square, the green background, the title', async () => {
    const png = await decodedRgb(stills.png!);
    // No codec between the renderer and the PNG: only the yuv420p round trip (a code value or two).
    assert.ok(near(pixel(png.data, W, 5, 5), [0, 128, 0], 3), `background ${pixel(png.data, W, 5, 5)}`);
    // A static magenta mark: exactly its colour (the yuv420p round trip only), inside its 40 px box.
    assert.ok(near(pixel(png.data, W, 340, 36), [255, 0, 255], 3), `mark ${pixel(png.data, W, 340, 36)}`);
    assert.ok(near(pixel(png.data, W, 310, 36), [0, 128, 0], 3), 'left of the mark is background');
    // The square slides (and fades) in from the left: at 1.3 s (0.3 s into a 0.8 s slide) it is
    // left of its place, blue over the green.
    const blue = (c: number) => {
      const [r, g, b] = pixel(png.data, W, c, 100);
      return r < 10 && b > 150 && g < 60;
    };
    const x = [...Array(W).keys()].find(blue);
    assert.ok(x !== undefined && x < 150 && x > 0, `the square's left edge at ${x}`);
    assert.ok(blue(x! + 40) && !blue(x! + 90), `the square is 80 px wide from ${x}`);
    const yellow = [...Array(200).keys()].some((c) => near(pixel(png.data, W, 20 + c, 185), [255, 255, 0], 40));
    assert.ok(yellow, 'yellow title text');
  });

  it('JPEG and WebP stills decode to the frame size and show the same frame', async (t) => {
    for (const format of ['jpeg', 'webp'] as const) {
      const meta = await sharp(stills[format]!).metadata();
      assert.equal(meta.format, format);
      assert.deepEqual([meta.width, meta.height], [W, H]);
      const img = await decodedRgb(stills[format]!);
      const d = meanDiff(img.data, frames[1]!);
      t.diagnostic(`${format}: mean abs diff to frame 13: ${d.toFixed(3)}`);
      assert.ok(d < 3, `${format}: mean abs diff ${d}`);
    }
    assert.equal((await sharp(stills.png!).metadata()).format, 'png');
  });

  it("a still's progress is a render's: preparing, rendering from 20, done at 100", () => {
    assert.equal(stillEvents[0]?.phase, 'preparing');
    for (let i = 1; i < stillEvents.length; i++) assert.ok(stillEvents[i]!.progress >= stillEvents[i - 1]!.progress);
    assert.ok(stillEvents.some((e) => e.phase === 'rendering' && e.progress === 20));
    assert.deepEqual(stillEvents.at(-1), { phase: 'done', progress: 100, durationSec: 2 });
  });

  it("the video's poster is the JPEG of its frame at posterTime, full size; the thumbnail 320 px wide", async (t) => {
    assert.equal((await sharp(files.poster).metadata()).format, 'jpeg');
    const poster = await decodedRgb(files.poster);
    assert.deepEqual([poster.width, poster.height], [W, H]);
    const [d12, d13, d14] = frames.map((f) => meanDiff(poster.data, f));
    t.diagnostic(`poster: mean abs diff to frames 12, 13, 14: ${[d12, d13, d14].map((d) => d!.toFixed(3))}`);
    assert.ok(d13! < 3, `poster vs frame 13: ${d13}`);
    assert.ok(d12! > d13! * 2 && d14! > d13! * 2, `neighbours differ more: ${d12}, ${d14}`);
    const thumb = await sharp(files.thumbnail).metadata();
    assert.equal(thumb.format, 'webp');
    assert.deepEqual([thumb.width, thumb.height], [320, 180]);
    // The thumbnail is the poster's frame scaled down: compare with the frame scaled alike.
    const small = await sharp(frames[1]!, { raw: { width: W, height: H, channels: 3 } })
      .resize({ width: 320 })
      .raw()
      .toBuffer();
    const thumbnail = await decodedRgb(files.thumbnail);
    const d = meanDiff(thumbnail.data, small);
    t.diagnostic(`thumbnail: mean abs diff to the frame scaled alike: ${d.toFixed(3)}`);
    assert.ok(d < 4, `thumbnail vs frame: ${d}`);
  });

  it("a still writes its thumbnail and no poster (its output is the image); the thumbnail's long side is 320", async () => {
    const own = posterFiles(stills.png!);
    assert.deepEqual(
      [(await sharp(own.thumbnail).metadata()).width, (await sharp(own.thumbnail).metadata()).height],
      [320, 180],
    );
    assert.throws(() => readFileSync(own.poster), /ENOENT/);
  });
});

describe('a still of a movie that keeps alpha', () => {
  it('is a PNG with alpha when every background is transparent: 0 around, 255 on the element', async () => {
    const doc = {
      schema: 'v1',
      width: 128,
      height: 72,
      fps: 10,
      output: { format: 'png', time: 0.5 },
      scenes: [
        {
          id: 's',
          duration: 1,
          background: 'transparent',
          elements: [
            {
              id: 'red',
              type: 'image',
              src: await solidPng('#ff0000'),
              width: 40,
              height: 40,
              position: { x: 10, y: 10 },
            },
          ],
        },
      ],
    };
    const r = validateMovie(doc);
    if (!r.ok) throw new Error(JSON.stringify(r.findings));
    const out = join(dir, 'alpha.png');
    await renderMovie({ movie: r.value, output: out, config });
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.channels, 4);
    const at = (x: number, y: number) => [...data.subarray((y * 128 + x) * 4, (y * 128 + x) * 4 + 4)];
    assert.equal(at(100, 60)[3], 0, `transparent around: ${at(100, 60)}`);
    assert.ok(near(at(30, 30), [255, 0, 0, 255], 3), `the red square, opaque: ${at(30, 30)}`);
  });
});

describe('thumbnails: 320 px on the long side, never enlarged', () => {
  const frame = (width: number, height: number) => ({ data: Buffer.alloc(width * height * 3, 200), width, height });
  for (const [w, h, want] of [
    [1920, 1080, [320, 180]],
    [1080, 1920, [180, 320]],
    [200, 100, [200, 100]],
  ] as const) {
    it(`${w}x${h} -> ${want.join('x')}`, async () => {
      const meta = await sharp(await encodeThumbnail(frame(w, h))).metadata();
      assert.deepEqual([meta.width, meta.height], want);
    });
  }
});

describe('frameIndexAt: the frame shown at a time', () => {
  it('is the frame whose interval holds it, clamped to the movie', () => {
    assert.equal(frameIndexAt(0, 30, 60), 0);
    assert.equal(frameIndexAt(0.1, 30, 60), 3); // 0.1 * 30 is 2.9999999999999996 in floats
    assert.equal(frameIndexAt(0.049, 10, 20), 0);
    assert.equal(frameIndexAt(1.999, 10, 20), 19);
    assert.equal(frameIndexAt(5, 10, 20), 19);
  });
});
