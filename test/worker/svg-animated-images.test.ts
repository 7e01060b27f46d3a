/**
 * SVG and animated images, rendered with the real ffmpeg and headless-gl and read back from the
 * decoded frames. The SVG is served by a local HTTP listener that records every request: its
 * external references (images, stylesheets, @import, fonts, use, script) must never be fetched,
 * and it must be drawn at the size it is shown (a sharp edge, not a small raster scaled up). The
 * animated GIF and WebP are made here by sharp: solid colours with known delays, checked frame by
 * frame, looping forever or playing once, drawn or composited over a clip.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';
import { validateMovie } from '../../movie/index.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import { animatedFrameAt } from '../../worker/plan/frame-state.ts';
import { sanitiseSvg } from '../../worker/prepare/assets/svg-image.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameRgb, near, pixel } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-svg-gif-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const W = 320;
const H = 180;

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};
const luma = (rgb: Buffer, x: number, y: number) => {
  const [r, g, b] = pixel(rgb, W, x, y);
  return Math.round(0.2126 * r + 0.7152 * g + 0.0722 * b);
};

/** Files served by path; every request's path is recorded. */
const files = new Map<string, { type: string; body: Buffer }>();
const requests: string[] = [];
let server: Server;
let base: string;
before(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const f = files.get(req.url ?? '');
    if (!f) {
      // Whatever an external reference would get: a red picture, so a fetch would also show.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(redPng);
      return;
    }
    res.writeHead(200, { 'content-type': f.type });
    res.end(f.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  redPng = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#ff0000' } })
    .png()
    .toBuffer();
});
after(() => server.close());
let redPng: Buffer;

/** Solid 16x16 frames joined into an animated GIF or WebP with these delays (ms) and loop count. */
async function animation(format: 'gif' | 'webp', colors: string[], delay: number[], loop: number): Promise<Buffer> {
  const frames = await Promise.all(
    colors.map((c) =>
      sharp({ create: { width: 16, height: 16, channels: 4, background: c } })
        .png()
        .toBuffer(),
    ),
  );
  const joined = sharp(frames, { join: { animated: true } });
  return format === 'gif'
    ? joined.gif({ delay, loop }).toBuffer()
    : joined.webp({ delay, loop, lossless: true }).toBuffer();
}

describe('SVG images', () => {
  let rgb: Buffer;
  before(async () => {
    // 10 x 10 user units: white on the left half, navy on the right; and every kind of reference
    // to something outside the document, which would draw red over it if it were loaded.
    const svg = `<?xml version="1.0"?>
<?xml-stylesheet type="text/css" href="${base}/pi.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" viewBox="0 0 10 10">
  <style>@import url("${base}/import.css"); @font-face { font-family: X; src: url(${base}/font.ttf); } .r { fill: url(${base}/paint.svg#p) }</style>
  <rect width="10" height="10" fill="#000080"/>
  <rect width="5" height="10" fill="#ffffff"/>
  <image href="${base}/href.png" x="0" y="0" width="2" height="2"/>
  <image xlink:href="${base}/xlink.png" x="8" y="8" width="2" height="2"/>
  <image href="file:///etc/passwd" width="1" height="1"/>
  <use href="${base}/use.svg#shape"/>
  <rect class="r" x="4" y="4" width="1" height="1" style="fill: url('${base}/style.svg#s')"/>
  <text font-family="X" x="1" y="9" font-size="1">x</text>
  <script href="${base}/script.js">fetch('${base}/inline-script')</script>
</svg>`;
    files.set('/picture.svg', { type: 'image/svg+xml', body: Buffer.from(svg) });
    const inline = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 6 6"><rect width="6" height="6" fill="#00ff00"/><image href="${base}/inline.png" width="6" height="6"/></svg>`;
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 10,
      scenes: [
        {
          id: 's',
          duration: 0.2,
          background: '#000000',
          elements: [
            // Drawn 16 times its own size.
            {
              id: 'svg',
              type: 'image',
              src: `${base}/picture.svg`,
              position: { x: 20, y: 10 },
              width: 160,
              height: 160,
            },
            // Inline, with a reference of its own.
            {
              id: 'inline',
              type: 'image',
              src: `data:image/svg+xml;base64,${Buffer.from(inline).toString('base64')}`,
              position: { x: 220, y: 40 },
              width: 60,
              height: 60,
            },
          ],
        },
      ],
    });
    const out = join(dir, 'svg.mp4');
    requests.length = 0;
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    rgb = await frameRgb(out, 1);
  });

  it('fetches the SVG and nothing it or the inline one references', () => {
    assert.deepEqual(requests, ['/picture.svg']);
  });

  it('draws its own content and none of the references', () => {
    assert.ok(luma(rgb, 60, 90) > 245, 'the white half');
    assert.ok(near(pixel(rgb, W, 140, 90), [0, 0, 128], 12), `the navy half: ${pixel(rgb, W, 140, 90)}`);
    // Where the referenced pictures would be drawn: what the SVG itself has there.
    assert.ok(luma(rgb, 25, 15) > 245, `top-left (the href image's place): ${pixel(rgb, W, 25, 15)}`);
    assert.ok(near(pixel(rgb, W, 175, 165), [0, 0, 128], 12), `bottom-right: ${pixel(rgb, W, 175, 165)}`);
    // The inline SVG (a data: URI) over its whole 60-pixel box.
    for (const [x, y] of [
      [221, 41],
      [250, 70],
      [278, 98],
    ] as const)
      assert.ok(near(pixel(rgb, W, x, y), [0, 255, 0], 12), `inline SVG at ${x},${y}: ${pixel(rgb, W, x, y)}`);
  });

  it('is rasterised at the drawn size: the edge between its halves is sharp', () => {
    // The halves meet at x = 20 + 80. A 10-pixel picture scaled up 16 times would blur the edge
    // over tens of pixels; rasterised at 160 pixels it is at most one pixel wide.
    for (const y of [20, 90, 160]) {
      let soft = 0;
      for (let x = 80; x < 120; x++) {
        const v = luma(rgb, x, y);
        if (v > 30 && v < 230) soft++;
      }
      assert.ok(soft <= 1, `row ${y}: ${soft} pixels between the halves' colours`);
      assert.ok(luma(rgb, 99, y) > 240 && luma(rgb, 100, y) < 30, `row ${y}: the edge at x = 100`);
    }
  });

  it('validates an inline SVG as a base64 data:image/svg+xml URI', () => {
    const doc = (src: string) => ({
      schema: 'v1',
      width: W,
      height: H,
      scenes: [{ id: 's', duration: 1, elements: [{ id: 'i', type: 'image', src }] }],
    });
    assert.equal(validateMovie(doc(`data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}`)).ok, true);
    const r = validateMovie(doc('data:image/svg+xml,<svg/>'));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.findings.map((f) => [f.code, f.path]),
      [['VALIDATION_ERROR', 'scenes[0].elements[0].src']],
    );
    assert.match(r.findings[0]!.message, /base64 data:image\/\(png\|jpeg\|webp\|gif\|avif\|svg\+xml\)/);
  });

  it('neutralises references before librsvg reads the text', () => {
    const clean = sanitiseSvg(files.get('/picture.svg')!.body.toString());
    assert.doesNotMatch(clean, /127\.0\.0\.1|file:|xml-stylesheet|@import|<script/);
    // Local references stay.
    assert.equal(sanitiseSvg('<use href="#a"/><rect fill="url(#g)"/>'), '<use href="#a"/><rect fill="url(#g)"/>');
  });
});

describe('animated images', () => {
  // 200, 300 and 100 ms: red, then green, then blue; one play is 600 ms.
  const colors = ['#ff0000', '#00ff00', '#0000ff'];
  const rgbOf: number[][] = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
  ];
  const delays = [200, 300, 100];
  /** The colour index each of 12 frames at 10 fps shows, looping: elapsed ms mod 600. */
  const looping = Array.from({ length: 12 }, (_, f) => {
    const ms = (f * 100) % 600;
    return ms < 200 ? 0 : ms < 500 ? 1 : 2;
  });
  /** Played once, then the last frame stays; this one starts 0.3 s in. */
  const once = Array.from({ length: 12 }, (_, f) => {
    if (f < 3) return -1;
    const ms = (f - 3) * 100;
    return ms >= 600 ? 2 : ms < 200 ? 0 : ms < 500 ? 1 : 2;
  });
  const movieWith = (under: Record<string, unknown>[]) =>
    valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 10,
      scenes: [
        {
          id: 's',
          duration: 1.2,
          background: '#808080',
          elements: [
            ...under,
            { id: 'gif', type: 'image', src: `${base}/loop.gif`, position: { x: 20, y: 20 }, width: 64, height: 64 },
            {
              id: 'webp',
              type: 'image',
              src: `${base}/once.webp`,
              position: { x: 120, y: 20 },
              width: 64,
              height: 64,
              start: 0.3,
            },
          ],
        },
      ],
    });
  const check = async (file: string) => {
    for (let f = 0; f < 12; f++) {
      const rgb = await frameRgb(file, f);
      const a = pixel(rgb, W, 52, 52);
      assert.ok(near(a, rgbOf[looping[f]!]!, 16), `frame ${f}: the looping GIF shows ${a}, not ${colors[looping[f]!]}`);
      const b = pixel(rgb, W, 152, 52);
      const want = once[f] === -1 ? undefined : rgbOf[once[f]!]!;
      if (want) assert.ok(near(b, want, 16), `frame ${f}: the WebP shows ${b}, not ${colors[once[f]!]}`);
      else assert.ok(near(b, [128, 128, 128], 16), `frame ${f}: the WebP has not started: ${b}`);
    }
  };
  before(async () => {
    files.set('/loop.gif', { type: 'image/gif', body: await animation('gif', colors, delays, 0) });
    files.set('/once.webp', { type: 'image/webp', body: await animation('webp', colors, delays, 1) });
  });

  it('picks the frame of each output frame by the cumulative delays, looping as the file says', async () => {
    const out = join(dir, 'animated.mp4');
    await renderMovie({ movie: movieWith([]), output: out, config, quality: 'lossless' });
    await check(out);
  });

  it('plays frame-exactly over a full-frame clip, where the chunk is composited by ffmpeg', async () => {
    const clip = join(dir, 'grey.mp4');
    await runFfmpeg('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=#808080:s=${W}x${H}:r=10`, '-t', '1.2'],
      ...['-c:v', 'libx264', '-qp', '0', '-pix_fmt', 'yuv420p'],
      ...['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', clip],
    ]);
    files.set('/grey.mp4', { type: 'video/mp4', body: readFileSync(clip) });
    const out = join(dir, 'animated-over-clip.mp4');
    const r = await renderMovie({
      movie: movieWith([{ id: 'clip', type: 'video', src: `${base}/grey.mp4` }]),
      output: out,
      config,
      quality: 'lossless',
    });
    const composited = r.segmentStats.reduce((n, s) => n + s.composited, 0);
    assert.ok(composited > 0, 'the chunk was composited by ffmpeg');
    await check(out);
  });

  it('fails with ASSET_INVALID at the src when the frames would take too much memory', async () => {
    files.set('/big.gif', { type: 'image/gif', body: await animation('gif', colors, delays, 0) });
    // 3 frames of 4500 x 4500 at the drawn size: 60.75 million pixels, over the 50 million.
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 10,
      scenes: [
        {
          id: 's',
          duration: 0.2,
          elements: [{ id: 'big', type: 'image', src: `${base}/big.gif`, width: 4500, height: 4500 }],
        },
      ],
    });
    await assert.rejects(renderMovie({ movie, output: join(dir, 'never.mp4'), config }), (err: unknown) => {
      assert.ok(err instanceof AppError, String(err));
      assert.equal(err.code, 'ASSET_INVALID');
      assert.equal(err.path, 'scenes[0].elements[0].src');
      assert.match(err.message, /too many pixels at the drawn size: 3 frames of 4500x4500/);
      return true;
    });
  });

  it('fails with ASSET_INVALID at the src when the file has too many frames', async () => {
    // Alternating colours: the GIF encoder merges equal neighbours into one frame.
    const gif = await animation(
      'gif',
      Array.from({ length: 1001 }, (_, i) => (i % 2 ? '#ff0000' : '#00ff00')),
      Array.from({ length: 1001 }, () => 40),
      0,
    );
    files.set('/long.gif', { type: 'image/gif', body: gif });
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 10,
      scenes: [
        {
          id: 's',
          duration: 0.2,
          elements: [
            { id: 'pad', type: 'text', text: 'x' },
            { id: 'long', type: 'image', src: `${base}/long.gif`, width: 32, height: 32 },
          ],
        },
      ],
    });
    await assert.rejects(renderMovie({ movie, output: join(dir, 'never.mp4'), config }), (err: unknown) => {
      assert.ok(err instanceof AppError, String(err));
      assert.equal(err.code, 'ASSET_INVALID');
      assert.equal(err.path, 'scenes[0].elements[1].src');
      assert.match(err.message, /too many frames \(1,001\), more than the 1,000/);
      return true;
    });
  });

  it('holds the last frame once a counted loop has played, and wraps a forever loop', () => {
    const plan = { textures: [], startsMs: [0, 200, 500], lengthMs: 600, loops: 2 };
    assert.deepEqual(
      [0, 0.199, 0.2, 0.5, 0.6, 0.8, 1.19, 1.2, 5].map((t) => animatedFrameAt(plan, 0, t)),
      [0, 0, 1, 2, 0, 1, 2, 2, 2],
    );
    assert.equal(animatedFrameAt({ ...plan, loops: 0 }, 1, 1 + 6.25), 1);
  });
});
