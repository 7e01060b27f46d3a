// The player draws what the worker draws: for each example and bench movie (the clip included),
// frames the player drew in Chromium (its WebGL 2 on SwiftShader) against the same frames drawn by
// the worker's frame graph on headless-gl (ANGLE on Mesa's llvmpipe), from the same preview's files,
// both read back as RGBA before any encoding. Each frame: the mean absolute difference per
// channel, and the worst 16x16 tile (a missing or misplaced text or element shows there).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { greenScreenClip, withKeyedClip } from '../../bench/motion.ts';
import type { Movie } from '../../movie/index.ts';
import { QUIET } from '../../worker/encode/ffmpeg-args.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import { browserMissing } from '../dashboard/browser.ts';
import {
  clipBoxes,
  frameDifference,
  loadInPage,
  type PageLoaded,
  type PlayerRig,
  pageFrame,
  startPlayerRig,
  workerFrames,
} from './harness.ts';

/** The bound: at most 2 levels per channel over the frame. */
const MEAN_LIMIT = 2;
/**
 * No 16x16 tile may differ by more than this on average, clips included (their planes are scaled
 * in the page as ffmpeg scales them: player/src/yuv-scale.ts). Measured: at most 0.9 (the two
 * rasterisers' rounding at soft edges). hello.json moved by one pixel leaves 39 in its worst tile,
 * a title a few frames ahead of its place 157 (the controls below).
 */
const TILE_LIMIT = 4;

const MOVIES = ['hello', 'draft', 'every-field', 'bench-60s', 'bench-60s-text', 'bench-60s-motion', 'extras'];

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120"><circle cx="60" cy="60" r="50" fill="#2a9d8f" stroke="#e9c46a" stroke-width="8"/><path d="M35 60 L55 80 L88 40" fill="none" stroke="#fff" stroke-width="10"/></svg>',
).toString('base64');

/**
 * What the examples leave out, in one movie: a VP9 clip in WebM (BT.709, tagged) scaled up and cut
 * to its box (`fit: cover`), looping; an untagged H.264 clip at its own size (BT.601, as ffmpeg
 * reads an untagged SD clip, where a browser may guess otherwise); an SVG zoomed by keyframes
 * (its sharper rasters); an animated GIF; a soundtrack ducked under a voice with its captions; a
 * wipe between scenes.
 */
function extras(base: string): Movie {
  return {
    schema: 'v1',
    width: 640,
    height: 360,
    fps: 25,
    soundtrack: { src: `${base}/music.mp3`, volume: 0.6 },
    scenes: [
      {
        id: 'one',
        duration: 2.4,
        background: '#101820',
        elements: [
          {
            id: 'clip',
            type: 'video',
            src: `${base}/waves.webm`,
            fit: 'cover',
            loop: true,
            muted: true,
            width: 400,
            height: 300,
            position: { x: 20, y: 30 },
          },
          {
            id: 'sd',
            type: 'video',
            src: `${base}/untagged.mp4`,
            muted: true,
            width: 160,
            height: 90,
            position: { x: 450, y: 175 },
          },
          {
            id: 'svg',
            type: 'image',
            src: `data:image/svg+xml;base64,${SVG}`,
            width: 120,
            height: 120,
            position: { x: 470, y: 40 },
            animate: {
              scale: [
                { time: 0, value: 1 },
                { time: 2, value: 1.8 },
              ],
            },
          },
          { id: 'gif', type: 'image', src: `${base}/spin.gif`, width: 80, height: 80, position: { x: 540, y: 270 } },
          { id: 'say', type: 'voice', text: 'The player plays this.' },
          { id: 'cc', type: 'subtitles', fontSize: 22, highlightColor: '#ffd400' },
        ],
      },
      {
        id: 'two',
        duration: 1.5,
        background: '#3a0ca3',
        transition: { type: 'wipe-left', duration: 0.5 },
        elements: [{ id: 'end', type: 'text', text: 'The end', fontSize: 48, color: '#ffffff' }],
      },
    ],
  } as unknown as Movie;
}
/** PLAYER_FRAMES=DIR writes each compared pair (and their difference, x8) as PNG, to look at. */
const DUMP = process.env.PLAYER_FRAMES;

/** An RGBA frame with rows bottom-up as a PNG (rows top-down). */
async function png(rgba: Buffer, width: number, height: number, file: string): Promise<void> {
  const flipped = Buffer.alloc(rgba.length);
  const row = width * 4;
  for (let y = 0; y < height; y++) rgba.copy(flipped, (height - 1 - y) * row, y * row, (y + 1) * row);
  await sharp(flipped, { raw: { width, height, channels: 4 } })
    .png()
    .toFile(file);
}

async function dump(name: string, f: number, ours: Buffer, theirs: Buffer, width: number, height: number) {
  if (!DUMP) return;
  await mkdir(DUMP, { recursive: true });
  const diff = Buffer.alloc(ours.length);
  for (let i = 0; i < ours.length; i += 4) {
    for (let c = 0; c < 3; c++) diff[i + c] = Math.min(255, Math.abs(ours[i + c]! - theirs[i + c]!) * 8);
    diff[i + 3] = 255;
  }
  await png(ours, width, height, path.join(DUMP, `${name}-${f}-player.png`));
  await png(theirs, width, height, path.join(DUMP, `${name}-${f}-worker.png`));
  await png(diff, width, height, path.join(DUMP, `${name}-${f}-diff.png`));
}

function example(name: string): Movie {
  return JSON.parse(readFileSync(new URL(`../../examples/${name}.json`, import.meta.url), 'utf8')) as Movie;
}

/** Five frames spread over the movie, and the middle of each transition. */
function framesOf(loaded: PageLoaded): number[] {
  const n = loaded.totalFrames;
  const frames = [0.05, 0.27, 0.5, 0.73, 0.95].map((x) => Math.min(n - 1, Math.floor(x * n)));
  for (const s of loaded.plan.scenes) {
    if (s.transition)
      frames.push(Math.min(n - 1, s.startFrame + Math.floor((s.transition.durationSec * loaded.plan.fps) / 2)));
  }
  return [...new Set(frames)].sort((a, b) => a - b);
}

test('the player draws what the worker draws', { skip: browserMissing(), timeout: 900_000 }, async (t) => {
  const clipDir = await mkdtemp(path.join(tmpdir(), 'fw-player-clip-'));
  await greenScreenClip('ffmpeg', path.join(clipDir, 'green-screen.mp4'));
  const ff = (args: string[]) => runFfmpeg('ffmpeg', [...QUIET, '-y', ...args]);
  await ff([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=960x540:r=25',
    '-t',
    '2',
    // Converted and tagged BT.709, as a camera or an editor writes it.
    '-vf',
    'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p',
    ...['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'],
    '-c:v',
    'libvpx-vp9',
    '-b:v',
    '400k',
    '-deadline',
    'realtime',
    path.join(clipDir, 'waves.webm'),
  ]);
  // Untagged: ffmpeg reads it as BT.601 (SD), a browser may not.
  await ff([
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=160x90:r=25:d=2',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    path.join(clipDir, 'untagged.mp4'),
  ]);
  await ff([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:sample_rate=44100',
    '-t',
    '5',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '96k',
    path.join(clipDir, 'music.mp3'),
  ]);
  await ff([
    '-f',
    'lavfi',
    '-i',
    // A finite source: palettegen waits for the end of its input.
    'testsrc=s=80x80:r=10:d=1',
    '-vf',
    'split[a][b];[a]palettegen[p];[b][p]paletteuse',
    '-loop',
    '0',
    path.join(clipDir, 'spin.gif'),
  ]);
  const types: Record<string, string> = { mp4: 'video/mp4', webm: 'video/webm', mp3: 'audio/mpeg', gif: 'image/gif' };
  const clipServer = createServer((req, res) => {
    const name = path.basename(req.url ?? '');
    const type = types[name.split('.').pop() ?? ''];
    if (!type) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': type }).end(readFileSync(path.join(clipDir, name)));
  });
  await new Promise<void>((resolve) => clipServer.listen(0, '127.0.0.1', resolve));
  const clipBase = `http://127.0.0.1:${(clipServer.address() as AddressInfo).port}`;
  const clipUrl = `${clipBase}/green-screen.mp4`;
  let rig: PlayerRig | undefined;
  t.after(async () => {
    await rig?.close();
    await new Promise((resolve) => clipServer.close(resolve));
    await rm(clipDir, { recursive: true, force: true });
  });
  rig = await startPlayerRig();
  const { page } = rig;

  for (const name of MOVIES.filter(
    (m) => !process.env.PLAYER_MOVIES || process.env.PLAYER_MOVIES.split(',').includes(m),
  )) {
    await t.test(name, async (t) => {
      const movie =
        name === 'extras'
          ? extras(clipBase)
          : name === 'bench-60s-motion'
            ? withKeyedClip(example(name), clipUrl)
            : example(name);
      const loaded = await loadInPage(page, { movie });
      const frames = framesOf(loaded);
      const theirs = await workerFrames(loaded, frames);
      const worst = { mean: 0, tile: 0, clip: 0 };
      for (const [i, f] of frames.entries()) {
        const ours = await pageFrame(page, f);
        await dump(name, f, ours, theirs[i]!, loaded.width, loaded.height);
        const d = frameDifference(ours, theirs[i]!, loaded.width, loaded.height, clipBoxes(loaded.plan, f));
        const mean = Math.max(...d.mean);
        worst.mean = Math.max(worst.mean, mean);
        worst.tile = Math.max(worst.tile, d.worstTile.diff);
        worst.clip = Math.max(worst.clip, d.worstClipTile.diff);
        t.diagnostic(
          `${name} ${loaded.width}x${loaded.height} frame ${f}: mean |diff| R ${d.mean[0].toFixed(3)} G ${d.mean[1].toFixed(3)} B ${d.mean[2].toFixed(3)}, worst tile ${d.worstTile.diff.toFixed(2)} at ${d.worstTile.x},${d.worstTile.y}, worst clip tile ${d.worstClipTile.diff.toFixed(2)}`,
        );
        assert.ok(mean <= MEAN_LIMIT, `${name} frame ${f}: mean difference ${d.mean.map((m) => m.toFixed(3))}`);
        assert.ok(
          d.worstTile.diff <= TILE_LIMIT,
          `${name} frame ${f}: the 16x16 tile at ${d.worstTile.x},${d.worstTile.y} differs by ${d.worstTile.diff.toFixed(2)} levels on average`,
        );
        assert.ok(
          d.worstClipTile.diff <= TILE_LIMIT,
          `${name} frame ${f}: the 16x16 tile at ${d.worstClipTile.x},${d.worstClipTile.y} (a clip) differs by ${d.worstClipTile.diff.toFixed(2)} levels on average`,
        );
      }
      // What the page shows is drawn onto the canvas by the same passes: the same bytes.
      const last = frames[frames.length - 1]!;
      const shown = await pageFrame(page, last, 'canvas');
      assert.ok(
        shown.equals(await pageFrame(page, last)),
        `${name} frame ${last}: the canvas differs from the scene target`,
      );
      t.diagnostic(
        `${name}: worst mean ${worst.mean.toFixed(3)}, worst tile ${worst.tile.toFixed(2)}, worst clip tile ${worst.clip.toFixed(2)} over ${frames.length} frames`,
      );
    });
  }

  await t.test('the comparison sees a misplaced element (control)', async (t) => {
    // hello.json's title slides in: its frame 3 against the worker's frame 9 has the same
    // picture a few pixels apart, which the tile bound must refuse.
    const loaded = await loadInPage(page, { movie: example('hello') });
    const [late] = await workerFrames(loaded, [9]);
    const d = frameDifference(await pageFrame(page, 3), late!, loaded.width, loaded.height);
    t.diagnostic(`control: mean ${d.mean.map((m) => m.toFixed(3))}, worst tile ${d.worstTile.diff.toFixed(2)}`);
    assert.ok(d.worstTile.diff > TILE_LIMIT, `worst tile ${d.worstTile.diff}`);
    // The worker's own still frame against itself moved one pixel right: the bound sees that too.
    const [still] = await workerFrames(loaded, [60]);
    const moved = Buffer.alloc(still!.length);
    const row = loaded.width * 4;
    for (let y = 0; y < loaded.height; y++) still!.copy(moved, y * row + 4, y * row, (y + 1) * row - 4);
    const shifted = frameDifference(still!, moved, loaded.width, loaded.height);
    t.diagnostic(`one pixel: worst tile ${shifted.worstTile.diff.toFixed(2)}`);
    assert.ok(shifted.worstTile.diff > TILE_LIMIT, `one pixel: worst tile ${shifted.worstTile.diff}`);
  });
});
