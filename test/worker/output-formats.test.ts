/**
 * Output formats (movie `output.format`) rendered for real, tiny (128x72, 10 fps, 1 s), and read
 * back with ffprobe and decoded frames and samples: codec, pixel format, alpha where the format
 * keeps it, duration, frame count, colours at sampled pixels, sound that is not silent.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runMediaTool } from '../../lib/process/ffmpeg-runner.ts';
import { validateMovie } from '../../movie/index.ts';
import type { RenderResult, WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { solidPngBytes } from './fixtures.ts';
import { frameMd5s, frameRgb, near, pixel, probe } from './media.ts';

const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const dir = mkdtempSync(join(tmpdir(), 'fw-formats-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const W = 128;
const H = 72;
const BLUE_BG = [0x20, 0x40, 0x80] as const;

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/** One second at 10 fps: a red 32x32 square at (10, 10) on `background`. */
async function movie(format: string, background: string, extra: Record<string, unknown> = {}) {
  const red = `data:image/png;base64,${(await solidPngBytes('#ff0000')).toString('base64')}`;
  return valid({
    schema: 'v1',
    width: W,
    height: H,
    fps: 10,
    output: { format },
    ...extra,
    scenes: [
      {
        id: 's',
        duration: 1,
        background,
        elements: [{ id: 'red', type: 'image', src: red, width: 32, height: 32, position: { x: 10, y: 10 } }],
      },
    ],
  });
}

/** Frame `n` decoded as RGBA (VP9's alpha needs libvpx's decoder; ProRes's native one keeps it). */
async function frameRgba(file: string, n: number, vp9 = false): Promise<Buffer> {
  return runMediaTool('ffmpeg', [
    '-v',
    'error',
    ...(vp9 ? ['-c:v', 'libvpx-vp9'] : []),
    '-i',
    file,
    '-vf',
    `select=eq(n\\,${n}),scale=in_color_matrix=bt709:in_range=tv,format=rgba`,
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    '-',
  ]);
}
const rgbaAt = (f: Buffer, x: number, y: number) => [...f.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)];

const video = async (file: string) => {
  const p = await probe(file);
  const v = p.streams.filter((s) => s.codec_type === 'video');
  assert.equal(v.length, 1, JSON.stringify(p.streams));
  return { v: v[0]!, p };
};

const assertTimed = (p: Awaited<ReturnType<typeof probe>>, frames: number) => {
  const v = p.streams.find((s) => s.codec_type === 'video')!;
  assert.equal(v.nb_read_frames, String(frames));
  assert.ok(Math.abs(Number(p.format.duration) - frames / 10) <= 0.1 + 1e-9, `duration ${p.format.duration}`);
};

describe('output formats: video', () => {
  const renders = new Map<string, RenderResult>();
  const render = async (name: string, m: Awaited<ReturnType<typeof movie>>, opts: { parallel?: number } = {}) => {
    const r = await renderMovie({ movie: m, output: join(dir, name), config, ...opts });
    renders.set(name, r);
    return r.output;
  };

  it('webm, opaque: VP9 yuv420p, 10 frames in 1 s, the colours drawn', async () => {
    const out = await render('opaque.webm', await movie('webm', '#204080'));
    const { v, p } = await video(out);
    assert.equal(v.codec_name, 'vp9');
    assert.equal(v.pix_fmt, 'yuv420p');
    assert.equal(v.width, W);
    assert.equal(v.height, H);
    assertTimed(p, 10);
    const f = await frameRgb(out, 5);
    assert.ok(near(pixel(f, W, 100, 60), BLUE_BG, 12), `background ${pixel(f, W, 100, 60)}`);
    assert.ok(near(pixel(f, W, 26, 26), [255, 0, 0], 20), `square ${pixel(f, W, 26, 26)}`);
    // No alpha plane where a background is opaque.
    const a = await frameRgba(out, 5, true);
    assert.equal(rgbaAt(a, 100, 60)[3], 255);
  });

  it('webm, transparent background: VP9 with alpha (yuva420p): 0 where nothing is drawn, 255 on the square', async () => {
    const out = await render('alpha.webm', await movie('webm', 'transparent'));
    const { v, p } = await video(out);
    assert.equal(v.codec_name, 'vp9');
    assertTimed(p, 10);
    const raw = await runMediaTool('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream_tags=alpha_mode',
      '-of',
      'csv=p=0',
      out,
    ]);
    assert.equal(raw.toString().trim(), '1', 'the WebM track says it has alpha');
    for (const n of [0, 9]) {
      const f = await frameRgba(out, n, true);
      assert.equal(rgbaAt(f, 100, 60)[3], 0, `transparent pixel of frame ${n}: ${rgbaAt(f, 100, 60)}`);
      const sq = rgbaAt(f, 26, 26);
      assert.equal(sq[3], 255, `square of frame ${n}: ${sq}`);
      assert.ok(near(sq.slice(0, 3), [255, 0, 0], 20), `square colour ${sq}`);
    }
  });

  it('mov, transparent background: ProRes 4444 with alpha, 0 where nothing is drawn, 255 on the square', async () => {
    const out = await render('alpha.mov', await movie('mov', '#12345600'));
    const { v, p } = await video(out);
    assert.equal(v.codec_name, 'prores');
    assert.match(v.pix_fmt ?? '', /^yuva444p1[02]le$/);
    assertTimed(p, 10);
    const f = await frameRgba(out, 4);
    assert.equal(rgbaAt(f, 100, 60)[3], 0);
    const sq = rgbaAt(f, 26, 26);
    assert.equal(sq[3], 255, `square ${sq}`);
    assert.ok(near(sq.slice(0, 3), [255, 0, 0], 12), `square colour ${sq}`);
  });

  it('mov with alpha: a crossfade between transparent scenes fades the square out in alpha', async () => {
    const red = `data:image/png;base64,${(await solidPngBytes('#ff0000')).toString('base64')}`;
    const m = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 10,
      output: { format: 'mov' },
      scenes: [
        {
          id: 'a',
          duration: 1,
          background: 'transparent',
          elements: [{ id: 'r', type: 'image', src: red, width: 32, height: 32, position: { x: 10, y: 10 } }],
        },
        {
          id: 'b',
          duration: 1,
          background: 'transparent',
          transition: { type: 'crossfade', duration: 0.6 },
          elements: [{ id: 'dot', type: 'image', src: red, width: 4, height: 4, position: { x: 120, y: 2 } }],
        },
      ],
    });
    const out = await render('fade.mov', m);
    assertTimed((await video(out)).p, 14);
    const alphaAt = async (n: number) => rgbaAt(await frameRgba(out, n), 26, 26)[3]!;
    assert.equal(await alphaAt(2), 255, 'before the transition');
    const mid = await alphaAt(7);
    assert.ok(mid > 90 && mid < 165, `half way through the crossfade: alpha ${mid}`);
    assert.equal(await alphaAt(13), 0, 'after it');
    assert.equal(rgbaAt(await frameRgba(out, 7), 100, 60)[3], 0, 'transparent elsewhere');
  });

  it('mov, opaque: ProRes 4444 without an alpha plane', async () => {
    const out = await render('opaque.mov', await movie('mov', '#204080'));
    const { v, p } = await video(out);
    assert.equal(v.codec_name, 'prores');
    assert.match(v.pix_fmt ?? '', /^yuv444p1[02]le$/);
    assertTimed(p, 10);
    const f = await frameRgb(out, 3);
    assert.ok(near(pixel(f, W, 100, 60), BLUE_BG, 8), `background ${pixel(f, W, 100, 60)}`);
  });

  it('mp4 of a transparent movie is flattened over black (H.264 has no alpha)', async () => {
    const out = await render('flat.mp4', await movie('mp4', 'transparent'));
    const { v } = await video(out);
    assert.equal(v.pix_fmt, 'yuv420p');
    const f = await frameRgb(out, 3);
    assert.ok(near(pixel(f, W, 100, 60), [0, 0, 0], 8), `background ${pixel(f, W, 100, 60)}`);
    assert.ok(near(pixel(f, W, 26, 26), [255, 0, 0], 20));
  });

  it('gif: one palette (pal8), 10 frames in 1 s, the colours right at sampled pixels, no sound', async () => {
    const out = await render('anim.gif', await movie('gif', '#204080'));
    const { v, p } = await video(out);
    assert.equal(v.codec_name, 'gif');
    assert.equal(p.streams.filter((s) => s.codec_type === 'audio').length, 0);
    assertTimed(p, 10);
    // The decoder's output is the palette's colours; ffprobe's pix_fmt of a GIF is bgra, so look at the file.
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(out);
    assert.equal(bytes.subarray(0, 6).toString('latin1'), 'GIF89a');
    assert.ok((bytes[10]! & 0x80) !== 0, 'a global colour table (the palette)');
    for (const n of [0, 9]) {
      const f = await frameRgb(out, n);
      assert.ok(near(pixel(f, W, 100, 60), BLUE_BG, 6), `background of frame ${n}: ${pixel(f, W, 100, 60)}`);
      assert.ok(near(pixel(f, W, 26, 26), [255, 0, 0], 6), `square of frame ${n}: ${pixel(f, W, 26, 26)}`);
    }
  });

  it('a draft webm is half size and watermarked, as an mp4 draft', async () => {
    const plain = await render('plain.webm', await movie('webm', '#000000'));
    const draft = await render('draft.webm', await movie('webm', '#000000', { draft: true }));
    const { v } = await video(draft);
    assert.equal(v.width, W / 2);
    assert.equal(v.height, H / 2);
    const corner = (f: Buffer, w: number, h: number) => {
      let max = 0;
      for (let y = 2; y < Math.round(h * 0.3); y++)
        for (let x = Math.round(w * 0.5); x < w - 2; x++) max = Math.max(max, Math.min(...pixel(f, w, x, y)));
      return max;
    };
    assert.ok(corner(await frameRgb(plain, 3), W, H) < 60, 'no watermark at full size');
    assert.ok(corner(await frameRgb(draft, 3), W / 2, H / 2) > 150, 'the draft watermark');
  });
});

describe('output formats: segments', () => {
  it('a webm over 3 segments (3 encoder chunks) equals the one-segment render: frames, duration, pictures', async () => {
    // 21 s at 2 fps: 42 frames, chunks of 20 frames, so 3 segments.
    const m = valid({
      schema: 'v1',
      width: 64,
      height: 36,
      fps: 2,
      output: { format: 'webm' },
      scenes: [
        {
          id: 'a',
          duration: 10.5,
          background: '#204080',
          elements: [{ id: 't', type: 'text', text: 'A', fontSize: 20 }],
        },
        {
          id: 'b',
          duration: 10.5,
          background: 'transparent',
          elements: [{ id: 'u', type: 'text', text: 'B', fontSize: 20, animation: { preset: 'fade-in', duration: 2 } }],
        },
      ],
    });
    const one = await renderMovie({ movie: m, output: join(dir, 'seg-1.webm'), config });
    const three = await renderMovie({ movie: m, output: join(dir, 'seg-3.webm'), config, parallel: 3 });
    assert.equal(one.segments, 1);
    assert.equal(three.segments, 3);
    const [a, b] = [await probe(one.output), await probe(three.output)];
    assert.equal(a.streams[0]!.nb_read_frames, '42');
    assert.equal(b.streams[0]!.nb_read_frames, '42');
    assert.equal(a.format.duration, b.format.duration);
    assert.deepEqual(await frameMd5s(three.output), await frameMd5s(one.output));
  });

  it('a gif over 2 segments has one palette and the frames of the one-segment gif', async () => {
    const m = valid({
      schema: 'v1',
      width: 64,
      height: 36,
      fps: 2,
      output: { format: 'gif' },
      scenes: [
        {
          id: 'a',
          duration: 10,
          background: '#204080',
          elements: [{ id: 't', type: 'text', text: 'A', fontSize: 20 }],
        },
        {
          id: 'b',
          duration: 10,
          background: '#806020',
          elements: [{ id: 'u', type: 'text', text: 'B', fontSize: 20 }],
        },
      ],
    });
    const one = await renderMovie({ movie: m, output: join(dir, 'seg-1.gif'), config });
    const two = await renderMovie({ movie: m, output: join(dir, 'seg-2.gif'), config, parallel: 2 });
    assert.equal(two.segments, 2);
    assert.equal((await probe(two.output)).streams[0]!.nb_read_frames, '40');
    assert.deepEqual(await frameMd5s(two.output), await frameMd5s(one.output));
  });
});

describe('output formats: alpha with a chunk composited by ffmpeg', () => {
  it('a webm that keeps alpha: the clip chunk composited (opaque), the next drawn on transparent black', async () => {
    // A 10 s BT.709 clip under every frame of the first encoder chunk (2 fps: 20 frames), so that
    // chunk is composited by ffmpeg; the second scene is drawn by GL with alpha.
    const clip = join(dir, 'green.mp4');
    await runMediaTool('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=#00c000:s=64x36:r=10:d=10.5'],
      ...['-vf', 'scale=out_color_matrix=bt709:out_range=tv'],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-colorspace', 'bt709', '-color_primaries', 'bt709'],
      ...['-color_trc', 'bt709', '-color_range', 'tv', clip],
    ]);
    const body = readFileSync(clip);
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const src = `http://127.0.0.1:${(server.address() as AddressInfo).port}/green.mp4`;
      const red = `data:image/png;base64,${(await solidPngBytes('#ff0000')).toString('base64')}`;
      const m = valid({
        schema: 'v1',
        width: 64,
        height: 36,
        fps: 2,
        output: { format: 'webm' },
        scenes: [
          {
            id: 'clip',
            duration: 10,
            background: 'transparent',
            elements: [{ id: 'v', type: 'video', src, width: 64, height: 36, position: { x: 0, y: 0 } }],
          },
          {
            id: 'square',
            duration: 2,
            background: 'transparent',
            elements: [{ id: 'r', type: 'image', src: red, width: 16, height: 16, position: { x: 4, y: 4 } }],
          },
        ],
      });
      const r = await renderMovie({ movie: m, output: join(dir, 'composited-alpha.webm'), config });
      assert.ok(
        r.segmentStats.some((s) => s.composited === 20),
        `the clip's chunk is composited: ${JSON.stringify(r.segmentStats)}`,
      );
      const p = await probe(r.output);
      assert.equal(p.streams[0]!.nb_read_frames, '24');
      const at = (f: Buffer, x: number, y: number) => [...f.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 4)];
      const rgba = (n: number) =>
        runMediaTool('ffmpeg', [
          ...['-v', 'error', '-c:v', 'libvpx-vp9', '-i', r.output, '-vf'],
          `select=eq(n\\,${n}),scale=in_color_matrix=bt709:in_range=tv,format=rgba`,
          ...['-frames:v', '1', '-f', 'rawvideo', '-'],
        ]);
      const clipFrame = await rgba(10);
      assert.equal(at(clipFrame, 40, 20)[3], 255, 'the clip is opaque');
      assert.ok(near(at(clipFrame, 40, 20).slice(0, 3), [0, 0xc0, 0], 16), `clip ${at(clipFrame, 40, 20)}`);
      const drawn = await rgba(22);
      assert.equal(at(drawn, 40, 20)[3], 0, 'transparent where nothing is drawn');
      assert.equal(at(drawn, 10, 10)[3], 255, 'the square is opaque');
    } finally {
      server.close();
    }
  });
});

describe('output formats: sound alone', () => {
  let spoken: Awaited<ReturnType<typeof valid>>;
  before(() => {
    spoken = valid({
      schema: 'v1',
      width: W,
      height: H,
      scenes: [
        {
          id: 's',
          duration: 'voice',
          elements: [{ id: 'v', type: 'voice', text: 'Hello from the output formats test' }],
        },
      ],
    });
  });

  /** RMS of the decoded samples over [from, to) seconds, 0..1. */
  async function rms(file: string, from: number, to: number): Promise<number> {
    const raw = await runMediaTool('ffmpeg', [
      '-v',
      'error',
      '-i',
      file,
      '-ss',
      String(from),
      '-t',
      String(to - from),
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '48000',
      '-',
    ]);
    let sum = 0;
    const n = raw.length / 2;
    for (let i = 0; i < n; i++) sum += (raw.readInt16LE(i * 2) / 32768) ** 2;
    return Math.sqrt(sum / Math.max(1, n));
  }

  for (const [format, codec] of [
    ['mp3', 'mp3'],
    ['wav', 'pcm_s16le'],
  ] as const) {
    it(`${format}: ${codec} of the mix, as long as the movie, not silent, no frame rendered`, async () => {
      const m = { ...spoken, output: { format } } as typeof spoken;
      const r = await renderMovie({ movie: m, output: join(dir, `voice.${format}`), config });
      assert.equal(r.renderedFrames, 0);
      assert.equal(r.totalFrames, 0);
      assert.ok(r.hasAudio);
      const p = await probe(r.output);
      assert.equal(p.streams.filter((s) => s.codec_type === 'video').length, 0);
      const a = p.streams.filter((s) => s.codec_type === 'audio');
      assert.equal(a.length, 1);
      assert.equal(a[0]!.codec_name, codec);
      // mp3 adds its encoder delay and frame padding (a few tens of ms).
      assert.ok(Math.abs(Number(p.format.duration) - r.durationSec) < 0.08, `${p.format.duration} vs ${r.durationSec}`);
      assert.ok(r.durationSec > 1, `durationSec ${r.durationSec}`);
      assert.ok((await rms(r.output, 0.2, r.durationSec - 0.6)) > 0.01, 'speech is not silence');
    });
  }
});
