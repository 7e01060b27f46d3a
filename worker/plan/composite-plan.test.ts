/**
 * The compositor's plan of a chunk and its ffmpeg command line, pure. What ffmpeg then makes of
 * them is tested against the renderer's own frames in test/worker/media-elements.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { yuvaFromRgba } from '../draw/gpu/backdrop-blend.ts';
import { rgbToYuv709 } from '../draw/gpu/yuv-layout.ts';
import { compositeArgs, overlayTimes } from '../encode/composite-args.ts';
import { encoderThreadsFor } from '../prepare/prepare.ts';
import { compositeChunk } from './composite-plan.ts';
import { indexPlan } from './frame-state.ts';
import type { LayerPlan, RenderPlan, ScenePlan } from './plan.ts';

const W = 64;
const H = 36;
const FPS = 10;

/** A clip filling the frame in `scene`, from `startSec` to `endSec`. */
function clip(
  sceneIndex: number,
  startSec: number,
  endSec: number,
  video: Partial<LayerPlan['video']> = {},
): LayerPlan {
  return {
    path: `scenes[${sceneIndex}].elements[0]`,
    sceneIndex,
    texture: { file: 'video:clip', width: W, height: H },
    x: 0,
    y: 0,
    width: W,
    height: H,
    startSec,
    endSec,
    video: {
      file: `/media/clip-${sceneIndex}.mp4`,
      startSec: 0,
      width: W,
      height: H,
      matrix: 'bt709',
      trimStartSec: 0,
      lengthSec: 100,
      loop: false,
      ...video,
    },
  };
}

function box(sceneIndex: number, startSec: number, endSec: number, more: Partial<LayerPlan> = {}): LayerPlan {
  return {
    path: `scenes[${sceneIndex}].elements[1]`,
    sceneIndex,
    texture: { file: `/tex/${sceneIndex}.rgba`, width: 10, height: 6 },
    x: 11,
    y: 5,
    width: 10,
    height: 6,
    startSec,
    endSec,
    ...more,
  };
}

function plan(scenes: Partial<ScenePlan>[], layers: LayerPlan[], totalFrames: number): RenderPlan {
  return {
    format: 'mp4',
    width: W,
    height: H,
    fps: FPS,
    totalFrames,
    scenes: scenes.map((s, index) => ({
      index,
      startFrame: 0,
      endFrame: totalFrames,
      startSec: 0,
      background: [0, 0, 0],
      ...s,
    })),
    layers,
    codec: 'libx264',
    quality: 'balanced',
    chunkFrames: 100,
    encoderThreads: 2,
  };
}

describe('compositeChunk', () => {
  it('takes one run of a clip, and a layer over it as a track of its states', () => {
    const p = plan(
      [{}],
      [clip(0, 0, 10, { trimStartSec: 2 }), box(0, 1, 10, { animation: { preset: 'slide-in-up', durationSec: 0.5 } })],
      100,
    );
    const c = compositeChunk(indexPlan(p), { from: 0, to: 100 })!;
    assert.deepEqual(c.runs, [{ layer: 0, frames: 100, sec: 2, held: false }]);
    assert.equal(c.tracks.length, 1);
    const t = c.tracks[0]!;
    assert.equal(t.layer, 1);
    // An animation starts from nothing (opacity 0 at its first instant): shown from frame 11.
    assert.deepEqual([t.first, t.end], [11, 100]);
    // Four frames of sliding, then one still state for the other 85.
    assert.deepEqual(
      t.runs.map((r) => r.frames),
      [1, 1, 1, 1, 85],
    );
    // Its rectangle covers every state: from the slide's lowest position to its resting place.
    assert.ok(t.rect.y0 <= 5 - 2 && t.rect.y1 >= 11 + 2 && t.rect.y1 <= H);
    assert.equal(t.rect.x0 % 2, 0);
    assert.equal(t.rect.y0 % 4, 0);
  });

  it('starts a new run where the clip loops, changes with the scene, or holds its last frame', () => {
    const p = plan(
      [
        { startFrame: 0, endFrame: 50 },
        { startFrame: 50, endFrame: 100, startSec: 5 },
      ],
      [clip(0, 0, 5, { trimStartSec: 1, lengthSec: 2, loop: true }), clip(1, 5, 10, { lengthSec: 3 })],
      100,
    );
    const c = compositeChunk(indexPlan(p), { from: 0, to: 100 })!;
    assert.deepEqual(
      c.runs.map((r) => [r.layer, r.frames, Number(r.sec.toFixed(4)), r.held]),
      [
        [0, 20, 1, false],
        [0, 20, 1, false],
        [0, 10, 1, false],
        [1, 30, 0, false],
        [1, 20, 2.9999, true],
      ],
    );
    assert.equal(
      c.runs.reduce((n, r) => n + r.frames, 0),
      100,
    );
  });

  it('leaves a chunk to the renderer when a frame has no backdrop, a transition, or a second clip', () => {
    const index = (layers: LayerPlan[], scenes: Partial<ScenePlan>[] = [{}]) => indexPlan(plan(scenes, layers, 100));
    // The clip starts a frame late.
    assert.equal(compositeChunk(index([clip(0, 0.1, 10)]), { from: 0, to: 100 }), undefined);
    // Smaller than the frame, moved, or in BT.601.
    assert.equal(compositeChunk(index([{ ...clip(0, 0, 10), width: W - 2 }]), { from: 0, to: 100 }), undefined);
    assert.equal(compositeChunk(index([{ ...clip(0, 0, 10), x: 2 }]), { from: 0, to: 100 }), undefined);
    assert.equal(compositeChunk(index([clip(0, 0, 10, { matrix: 'bt601' })]), { from: 0, to: 100 }), undefined);
    // A second clip over it.
    assert.equal(
      compositeChunk(index([clip(0, 0, 10), { ...clip(0, 0, 10), width: 20, height: 12 }]), { from: 0, to: 100 }),
      undefined,
    );
    // A crossfade between two clips.
    const crossfade = index(
      [clip(0, 0, 6), clip(1, 5, 10)],
      [
        { startFrame: 0, endFrame: 60 },
        { startFrame: 50, endFrame: 100, startSec: 5, transition: { type: 'crossfade', durationSec: 1 } },
      ],
    );
    assert.equal(compositeChunk(crossfade, { from: 0, to: 100 }), undefined);
    // The same movie's frames outside the transition are fine.
    assert.ok(compositeChunk(crossfade, { from: 0, to: 50 }));
    // An odd frame size (yuv420p needs even).
    assert.equal(
      compositeChunk(indexPlan({ ...plan([{}], [clip(0, 0, 10)], 100), width: 63 }), { from: 0, to: 100 }),
      undefined,
    );
  });

  it('tracks each layer over its own frames: one that ends early stops there', () => {
    const p = plan([{}], [clip(0, 0, 10), box(0, 0, 2), { ...box(0, 0, 10), x: 30 }], 100);
    const c = compositeChunk(indexPlan(p), { from: 0, to: 100 })!;
    assert.deepEqual(
      c.tracks.map((t) => [t.layer, t.first, t.end, t.runs.length]),
      [
        [1, 0, 20, 1],
        [2, 0, 100, 1],
      ],
    );
  });
});

describe('compositeArgs', () => {
  const p = plan(
    [{}],
    [
      clip(0, 0, 10, { trimStartSec: 2.5, startSec: 0.04 }),
      box(0, 1, 10, { animation: { preset: 'fade-in', durationSec: 0.3 } }),
    ],
    100,
  );
  const c = compositeChunk(indexPlan(p), { from: 0, to: 100 })!;
  const settings = {
    format: 'mp4' as const,
    width: W,
    height: H,
    fps: FPS,
    codec: 'libx264' as const,
    quality: 'balanced' as const,
    threads: 2,
  };
  const args = compositeArgs(c, { clip: (l) => p.layers[l]!.video!, images: ['/o/t0.yuva'] }, settings, '/o/chunk.mp4');
  const graph = args[args.indexOf('-filter_complex') + 1]!;

  it('seeks each run to its keyframe and picks frames in the source time base divided by the rate', () => {
    assert.deepEqual(args.slice(args.indexOf('-copyts') + 1, args.indexOf('-copyts') + 8), [
      '-noaccurate_seek',
      '-ss',
      '2.500000',
      '-threads',
      '1',
      '-i',
      '/media/clip-0.mp4',
    ]);
    assert.match(graph, /settb=expr=intb\/10,setpts=PTS-floor\(2\.540001000\/TB\),fps=fps=10:start_time=0:round=up/);
    assert.match(graph, /trim=end_frame=100,tpad=stop_mode=clone:stop=100,trim=end_frame=100/);
  });

  it('times each overlay image from half a frame before its first frame, and places the layer off the frame outside its frames', () => {
    const t = c.tracks[0]!;
    // Fading in: opacity 0.7 at frame 11, 0.96 at 12, whole from 13 on.
    assert.deepEqual(
      t.runs.map((r) => r.frames),
      [1, 1, 87],
    );
    // Image 0 from the chunk's start, images 1 and 2 from half a frame before frames 12 and 13
    // (in ticks of half a frame: 2 x 12 - 1 = 23).
    assert.equal(overlayTimes(t), '23*eq(N,1)+25*eq(N,2)');
    assert.match(graph, /settb=1\/20,setpts='23\*eq\(N,1\)\+25\*eq\(N,2\)'/);
    assert.match(
      graph,
      new RegExp(`overlay=x='if\\(between\\(t,1\\.050000,9\\.950000\\),${t.rect.x0},W\\)':y=${t.rect.y0}`),
    );
  });

  it('encodes with the raw-frame encoder settings, and exactly the chunk frames', () => {
    assert.deepEqual(args.slice(args.indexOf('-frames:v'), args.indexOf('-frames:v') + 2), ['-frames:v', '100']);
    assert.ok(args.join(' ').includes('-c:v libx264 -preset ultrafast -crf 32'));
    assert.ok(args.join(' ').includes('-colorspace bt709'));
    assert.equal(args.at(-1), '/o/chunk.mp4');
  });
});

describe('encoderThreadsFor', () => {
  it('gives each of the two chunk processes half the cores when most chunks are composited', () => {
    const clipMovie = plan([{}], [clip(0, 0, 30)], 300);
    assert.equal(encoderThreadsFor(clipMovie, 2), 1);
    assert.equal(encoderThreadsFor(clipMovie, 16), 8);
    // Two of three chunks drawn here (the clip only in the last 10 s): one thread per core.
    const mostlyDrawn = plan([{}], [clip(0, 20, 30)], 300);
    assert.equal(encoderThreadsFor(mostlyDrawn, 2), 2);
    assert.equal(encoderThreadsFor(plan([{}], [box(0, 0, 30)], 300), 4), 4);
  });
});

describe('yuvaFromRgba', () => {
  // GL's read-back of a 4x2 rectangle, rows bottom-up, premultiplied: the left 2x2 block has two
  // opaque red pixels and two transparent ones; the right block is half-transparent blue.
  const rgba = Uint8Array.from([
    // Bottom row (image row 1): red, transparent, blue at alpha 128 twice.
    ...[255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 128, 128, 0, 0, 128, 128],
    // Top row (image row 0): transparent, red, the same blue.
    ...[0, 0, 0, 0, 255, 0, 0, 255, 0, 0, 128, 128, 0, 0, 128, 128],
  ]);
  const out = yuvaFromRgba(rgba, 4, 2, new Uint8Array(4 * 2 * 2.5));
  const [redY, redU, redV] = rgbToYuv709(255, 0, 0);
  const [blueY, blueU, blueV] = rgbToYuv709(0, 0, 255);

  it('gives each pixel its straight colour and its alpha, rows top-down', () => {
    assert.deepEqual([...out.subarray(0, 8)], [16, redY, blueY, blueY, redY, 16, blueY, blueY]);
    assert.deepEqual([...out.subarray(12, 20)], [0, 255, 128, 128, 255, 0, 128, 128]);
  });

  it("weights each block's chroma by alpha: a half-covered block is the colour of what covers it", () => {
    // ffmpeg blends the sample with the block's mean alpha, so the blend is the mean of the four.
    assert.deepEqual([...out.subarray(8, 10)], [redU, blueU]);
    assert.deepEqual([...out.subarray(10, 12)], [redV, blueV]);
  });

  it('writes into a larger image at an offset, leaving the rest', () => {
    const big = new Uint8Array(8 * 4 * 2.5).fill(7);
    yuvaFromRgba(rgba, 4, 2, big, { x: 2, y: 2, outWidth: 8, outRows: 4 });
    // Row 2 of the luma plane, columns 2..5; the rows above untouched.
    assert.deepEqual([...big.subarray(2 * 8 + 2, 2 * 8 + 6)], [16, redY, blueY, blueY]);
    assert.ok(big.subarray(0, 16).every((b) => b === 7));
    // Chroma row 1, columns 1 and 2 (U plane after the 32 luma bytes).
    assert.deepEqual([...big.subarray(32 + 4 + 1, 32 + 4 + 3)], [redU, blueU]);
  });
});
