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
 * No 16x16 tile may differ by more than this on average. Measured: at most 0.7 outside clips (the
 * two rasterisers' rounding at soft edges). hello.json moved by one pixel leaves 39 in its worst
 * tile, a title a few frames ahead of its place 157 (the controls below).
 */
const TILE_LIMIT = 4;
/**
 * Tiles that meet a clip: the browser decodes it (and scales it on a canvas), the worker has
 * ffmpeg's bicubic YUV; a chroma key turns that last-bit difference into a keyed or kept pixel
 * at the key's edges. Measured: at most 11.6, on bench-60s-motion's keyed clip.
 */
const CLIP_TILE_LIMIT = 16;

const MOVIES = ['hello', 'draft', 'every-field', 'bench-60s', 'bench-60s-text', 'bench-60s-motion'];
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
  const clipServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4' }).end(readFileSync(path.join(clipDir, 'green-screen.mp4')));
  });
  await new Promise<void>((resolve) => clipServer.listen(0, '127.0.0.1', resolve));
  const clipUrl = `http://127.0.0.1:${(clipServer.address() as AddressInfo).port}/green-screen.mp4`;
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
      const movie = name === 'bench-60s-motion' ? withKeyedClip(example(name), clipUrl) : example(name);
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
          d.worstClipTile.diff <= CLIP_TILE_LIMIT,
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
