import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { validateMovie } from '../../movie/index.ts';
import type { RenderProgress, WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { longMovie, silentMovie } from './fixtures.ts';
import { frameMd5s, frameRgb, maxBrightness, near, pixel, probe } from './media.ts';

const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const dir = mkdtempSync(join(tmpdir(), 'fw-render-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

describe('renderMovie: a silent two-scene movie', () => {
  let out: string;
  const events: RenderProgress[] = [];
  before(async () => {
    out = join(dir, 'silent.mp4');
    await renderMovie({ movie: valid(await silentMovie()), output: out, config, onProgress: (e) => events.push(e) });
  });

  it('is H.264 yuv420p at exactly 320x180, 25 fps, 2 s, without audio', async () => {
    const p = await probe(out);
    const video = p.streams.filter((s) => s.codec_type === 'video');
    assert.equal(video.length, 1);
    assert.equal(p.streams.filter((s) => s.codec_type === 'audio').length, 0);
    const v = video[0]!;
    assert.equal(v.codec_name, 'h264');
    assert.equal(v.pix_fmt, 'yuv420p');
    assert.equal(v.width, 320);
    assert.equal(v.height, 180);
    assert.equal(v.r_frame_rate, '25/1');
    assert.equal(v.nb_read_frames, '50');
    assert.ok(Math.abs(Number(p.format.duration) - 2) <= 1 / 25, `duration ${p.format.duration}`);
  });

  it('reports monotonic progress: preparing, rendering from 20, done at 100 with durationSec', () => {
    assert.equal(events[0]?.phase, 'preparing');
    for (let i = 1; i < events.length; i++) assert.ok(events[i]!.progress >= events[i - 1]!.progress);
    const rendering = events.filter((e) => e.phase === 'rendering');
    assert.ok(rendering.length > 0 && rendering.every((e) => e.progress >= 20 && e.progress <= 99));
    assert.ok(rendering.every((e) => e.phase === 'rendering' && e.durationSec === 2));
    assert.deepEqual(events.at(-1), { phase: 'done', progress: 100, durationSec: 2 });
  });

  it('draws the background, the image where it was placed, and the text', async () => {
    const f = await frameRgb(out, 12);
    assert.ok(near(pixel(f, 320, 5, 5), [0x20, 0x40, 0x80]), `background ${pixel(f, 320, 5, 5)}`);
    assert.ok(near(pixel(f, 320, 52, 52), [255, 0, 0], 16), `image ${pixel(f, 320, 52, 52)}`);
    assert.ok(near(pixel(f, 320, 100, 52), [0x20, 0x40, 0x80]), 'right of the image is background');
    assert.ok(maxBrightness(f, 320, 200, 100, 270, 150) > 230, 'white text where it was placed');
    assert.ok(maxBrightness(f, 320, 100, 100, 190, 170) < 150, 'no text elsewhere');
  });

  it('animates: slide-in-left starts off its place and ends on it', async () => {
    const start = await frameRgb(out, 25);
    assert.ok(near(pixel(start, 320, 160, 90), [0, 128, 0], 16), `start ${pixel(start, 320, 160, 90)}`);
    const end = await frameRgb(out, 45);
    assert.ok(near(pixel(end, 320, 160, 90), [0, 0, 255], 16), `end ${pixel(end, 320, 160, 90)}`);
    // Half way (ease-out): to the left of its resting place, already mostly opaque.
    const mid = await frameRgb(out, 31);
    assert.ok(pixel(mid, 320, 120, 90)[2] > 150, `mid ${pixel(mid, 320, 120, 90)}`);
  });

  it('gives the same frames for the same input', async () => {
    const again = join(dir, 'silent-again.mp4');
    await renderMovie({ movie: valid(await silentMovie()), output: again, config });
    assert.deepEqual(await frameMd5s(again), await frameMd5s(out));
  });
});

describe('renderMovie: segments', () => {
  it('--parallel 3 renders 3 segments that join into the same frames as one (balanced, CRF)', async () => {
    const movie = valid(await longMovie());
    const one = join(dir, 'long-1.mp4');
    const three = join(dir, 'long-3.mp4');
    const a = await renderMovie({ movie, output: one, config });
    const b = await renderMovie({ movie, output: three, config, parallel: 3 });
    assert.equal(a.segments, 1);
    assert.equal(b.segments, 3);
    assert.equal(a.totalFrames, 625);
    const [ma, mb] = [await frameMd5s(one), await frameMd5s(three)];
    assert.equal(ma.length, 625);
    assert.equal(mb.length, 625);
    const differ = ma.flatMap((m, i) => (m === mb[i] ? [] : [i]));
    assert.deepEqual(differ, [], `frames that differ: ${differ.slice(0, 10).join(', ')}`);
  });

  it('cuts only between encoder chunks: a movie shorter than one chunk stays one segment', async () => {
    const r = await renderMovie({
      movie: valid(await silentMovie()),
      output: join(dir, 'short-par.mp4'),
      config,
      parallel: 2,
    });
    assert.equal(r.segments, 1);
    assert.equal((await probe(r.output)).streams[0]?.nb_read_frames, '50');
  });
});

describe('renderMovie: watermark and draft', () => {
  const corner = (f: Buffer, w: number, h: number) =>
    maxBrightness(f, w, Math.round(w * 0.55), 2, w - 2, Math.round(h * 0.2));

  it('adds a visible watermark at full size when asked, none otherwise', async () => {
    const plain = join(dir, 'plain.mp4');
    const marked = join(dir, 'marked.mp4');
    const movie = valid(await silentMovie());
    await renderMovie({ movie, output: plain, config });
    await renderMovie({ movie, output: marked, config, watermark: true });
    assert.ok(corner(await frameRgb(plain, 5), 320, 180) < 150);
    assert.ok(corner(await frameRgb(marked, 5), 320, 180) > 200);
    assert.equal((await probe(marked)).streams[0]?.width, 320);
  });

  it('renders drafts at half size with the watermark', async () => {
    const draft = join(dir, 'draft.mp4');
    await renderMovie({ movie: valid(await silentMovie()), output: draft, config, draft: true });
    const v = (await probe(draft)).streams[0]!;
    assert.deepEqual([v.width, v.height], [160, 90]);
    const f = await frameRgb(draft, 5);
    assert.ok(near(pixel(f, 160, 26, 26), [255, 0, 0], 20), 'image scaled with the frame');
    assert.ok(corner(f, 160, 90) > 180);
  });
});

describe('renderMovie: temporary files', () => {
  it('leaves no temporary directory behind', async () => {
    const scratch = mkdtempSync(join(dir, 'scratch-'));
    await renderMovie({
      movie: valid(await silentMovie()),
      output: join(dir, 'tmp-check.mp4'),
      config,
      tmpRoot: scratch,
    });
    assert.deepEqual(readdirSync(scratch), []);
  });
});

describe('renderMovie: quality', () => {
  const run = promisify(execFile);
  /** The picture types of the video stream, in decode order ('I', 'P', 'B'). */
  const pictTypes = async (file: string) =>
    (
      await run('ffprobe', [
        ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pict_type', '-of', 'csv=p=0', file],
      ])
    ).stdout
      .split('\n')
      .filter(Boolean);
  const ssim = async (file: string, reference: string) => {
    const { stderr } = await run('ffmpeg', [
      '-hide_banner',
      '-i',
      file,
      '-i',
      reference,
      '-lavfi',
      'ssim',
      '-f',
      'null',
      '-',
    ]);
    return Number(/All:([0-9.]+)/.exec(stderr)?.[1]);
  };

  it('balanced by default (B-frames), fast when the movie says so (none); the same frames, balanced much smaller', async () => {
    const movie = valid(await silentMovie());
    const files = {
      lossless: join(dir, 'q-lossless.mp4'),
      fast: join(dir, 'q-fast.mp4'),
      balanced: join(dir, 'q-balanced.mp4'),
    };
    await renderMovie({ movie, output: files.lossless, config, quality: 'lossless' });
    await renderMovie({ movie: valid({ ...(await silentMovie()), quality: 'fast' }), output: files.fast, config });
    await renderMovie({ movie, output: files.balanced, config });

    const fast = await pictTypes(files.fast);
    const balanced = await pictTypes(files.balanced);
    assert.equal(fast.length, 50);
    assert.equal(balanced.length, 50, 'the same number of frames');
    assert.ok(!fast.includes('B'), `fast has no B-frames: ${fast.join('')}`);
    assert.ok(balanced.includes('B'), `balanced has B-frames: ${balanced.join('')}`);
    const size = (f: string) => statSync(f).size;
    assert.ok(size(files.balanced) < size(files.fast), `${size(files.balanced)} < ${size(files.fast)} bytes`);
    // Against the lossless frames: both close, fast (CRF 20) closer.
    const [sFast, sBalanced] = [await ssim(files.fast, files.lossless), await ssim(files.balanced, files.lossless)];
    assert.ok(sBalanced > 0.99, `balanced SSIM ${sBalanced}`);
    assert.ok(sFast >= sBalanced, `fast SSIM ${sFast} >= balanced ${sBalanced}`);
  });

  it('a quality outside fast, balanced and small is refused at its path', async () => {
    const r = validateMovie({ ...(await silentMovie()), quality: 'lossless' });
    assert.ok(!r.ok);
    assert.deepEqual(
      r.findings.map((f) => [f.code, f.path]),
      [['SCHEMA_INVALID', 'quality']],
    );
  });
});
