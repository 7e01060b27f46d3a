import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANIMATION_PRESETS } from '../../movie/animations.ts';
import { cubicBezier, easingOf, springAt } from '../../movie/easing.ts';
import { evaluateMotion, type MotionTrack, presetTracks } from '../../movie/motion.ts';
import { animationState, layerMotion, motionExtent } from './animate.ts';
import { elementMotion } from './motion-plan.ts';
import type { AnimationPreset, LayerPlan } from './plan.ts';

const W = 1280;
const H = 720;

/** The preset formulas as they were before presets became keyframes (worker/plan/animate.ts at 46d2237). */
function before(preset: AnimationPreset, durationSec: number, t: number, startSec: number, endSec: number) {
  const REST = { dx: 0, dy: 0, scale: 1, opacity: 1 };
  const hidden = {
    'fade-in': { dx: 0, dy: 0, scale: 1, opacity: 0 },
    'fade-out': { dx: 0, dy: 0, scale: 1, opacity: 0 },
    'zoom-in': { dx: 0, dy: 0, scale: 0.3, opacity: 0 },
    'zoom-out': { dx: 0, dy: 0, scale: 0.3, opacity: 0 },
    'slide-in-up': { dx: 0, dy: 0.25 * H, scale: 1, opacity: 0 },
    'slide-in-down': { dx: 0, dy: -0.25 * H, scale: 1, opacity: 0 },
    'slide-in-left': { dx: -0.25 * W, dy: 0, scale: 1, opacity: 0 },
    'slide-in-right': { dx: 0.25 * W, dy: 0, scale: 1, opacity: 0 },
  }[preset];
  const lerp = (a: typeof REST, b: typeof REST, k: number) => ({
    dx: a.dx + (b.dx - a.dx) * k,
    dy: a.dy + (b.dy - a.dy) * k,
    scale: a.scale + (b.scale - a.scale) * k,
    opacity: a.opacity + (b.opacity - a.opacity) * k,
  });
  const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
  if (preset.endsWith('-out')) {
    const p = clamp01((t - (endSec - durationSec)) / durationSec);
    return p <= 0 ? REST : lerp(REST, hidden, p ** 3);
  }
  const p = clamp01((t - startSec) / durationSec);
  return p >= 1 ? REST : lerp(hidden, REST, 1 - (1 - p) ** 3);
}

describe('presets as keyframes', () => {
  it('every preset gives the state the old formulas gave, at every frame of 25 fps (within 1e-9)', () => {
    for (const preset of ANIMATION_PRESETS) {
      for (const durationSec of [0.3, 0.6, 2]) {
        for (let f = 25; f < 125; f++) {
          const t = f / 25;
          const a = animationState({ preset, durationSec }, t, 1, 5, W, H);
          const b = before(preset, durationSec, t, 1, 5);
          for (const k of ['dx', 'dy', 'scale', 'opacity'] as const)
            assert.ok(Math.abs(a[k] - b[k]) < 1e-9, `${preset} ${durationSec}s at ${t}: ${k} ${a[k]} vs ${b[k]}`);
        }
      }
    }
  });

  it('animation.in and animation.out: entry from the start, exit ending at the element end', () => {
    const tracks = presetTracks(
      [
        { effect: 'slide-up', exit: false, durationSec: 0.5 },
        { effect: 'fade', exit: true, durationSec: 1 },
      ],
      4,
      W,
      H,
    );
    assert.deepEqual(evaluateMotion(tracks, 0), { ...evaluateMotion([], 0), dy: 0.25 * H, opacity: 0 });
    assert.equal(evaluateMotion(tracks, 2).opacity, 1);
    assert.equal(evaluateMotion(tracks, 2).dy, 0);
    assert.ok(Math.abs(evaluateMotion(tracks, 3.5).opacity - (1 - 0.5 ** 3)) < 1e-9);
    assert.equal(evaluateMotion(tracks, 4).opacity, 0);
    // An exit slide moving up ends above its place.
    const up = presetTracks([{ effect: 'slide-up', exit: true, durationSec: 1 }], 4, W, H);
    assert.equal(evaluateMotion(up, 4).dy, -0.25 * H);
  });
});

describe('evaluateMotion', () => {
  const track = (property: 'opacity' | 'dx' | 'rotation', keys: [number, number, string?][]): MotionTrack => ({
    property,
    keys: keys.map(([sec, value, e]) => ({ sec, value, easing: easingOf(e) })),
  });

  it('holds the first value before the first key and the last after the last', () => {
    const t = [
      track('dx', [
        [1, 10],
        [2, 30],
      ]),
    ];
    assert.equal(evaluateMotion(t, 0).dx, 10);
    assert.equal(evaluateMotion(t, 3).dx, 30);
    assert.equal(evaluateMotion(t, 1.5).dx, 20);
  });

  it("a key's easing shapes the segment after it", () => {
    const t = [
      track('dx', [
        [0, 0, 'ease-in'],
        [1, 100],
        [3, 0, 'steps(2)'],
      ]),
    ];
    const curve = cubicBezier(0.42, 0, 1, 1);
    assert.ok(Math.abs(evaluateMotion(t, 0.3).dx - 100 * curve(0.3)) < 1e-9);
    // The second segment is linear (the key at 1 s names no easing).
    assert.ok(Math.abs(evaluateMotion(t, 2).dx - 50) < 1e-9);
  });

  it('a spring segment runs in seconds from its key', () => {
    const t = [
      track('rotation', [
        [1, 0, 'spring(1, 100, 10)'],
        [3, 90],
      ]),
    ];
    assert.ok(Math.abs(evaluateMotion(t, 1.2).rotation - 90 * springAt(1, 100, 10, 0.2)) < 1e-9);
  });

  it('composes: offsets add, factors multiply, crops intersect', () => {
    const m = evaluateMotion(
      [
        track('dx', [[0, 5]]),
        track('dx', [[0, 7]]),
        track('opacity', [[0, 0.5]]),
        track('opacity', [[0, 0.5]]),
        {
          property: 'crop',
          keys: [{ sec: 0, value: { x: 0, y: 0, width: 10, height: 10 }, easing: easingOf(undefined) }],
        },
        {
          property: 'crop',
          keys: [{ sec: 0, value: { x: 5, y: 2, width: 10, height: 4 }, easing: easingOf(undefined) }],
        },
      ],
      0,
    );
    assert.equal(m.dx, 12);
    assert.equal(m.opacity, 0.25);
    assert.deepEqual(m.crop, { x: 5, y: 2, width: 5, height: 4 });
  });
});

describe('elementMotion (document to tracks)', () => {
  it('x and y keys are the box edges in output pixels; percentages are of the duration', () => {
    const tracks = elementMotion(
      {
        animate: {
          x: [
            { time: 0, value: 100 },
            { time: '50%', value: 200 },
          ],
        },
      },
      { k: 0.5, width: 640, height: 360, lengthSec: 4, boxLeft: 20, boxTop: 0 },
    )!;
    // Drafts scale by k: x 100 is output pixel 50, 30 right of the box resting at 20.
    assert.equal(evaluateMotion(tracks, 0).dx, 30);
    assert.equal(evaluateMotion(tracks, 2).dx, 80);
    assert.equal(evaluateMotion(tracks, 1).dx, 55);
  });
});

describe('layerMotion', () => {
  const layer: LayerPlan = {
    path: 'p',
    sceneIndex: 0,
    texture: { file: 'f', width: 40, height: 20 },
    x: 100,
    y: 50,
    width: 20,
    height: 20,
    startSec: 0,
    endSec: 1,
  };
  it('a piece of a reveal turns about its element centre', () => {
    const piece: LayerPlan = { ...layer, unit: { x: 80, y: 50, width: 40, height: 20, startSec: 0, tracks: [] } };
    const turn: MotionTrack[] = [{ property: 'rotation', keys: [{ sec: 0, value: 90, easing: easingOf(undefined) }] }];
    const m = layerMotion(piece, turn, 0.5);
    // Its centre (110, 60) is 10 right of the element's (100, 60): a quarter turn clockwise puts it 10 below.
    assert.ok(Math.abs(m.x + 10 - 100) < 1e-9 && Math.abs(m.y + 10 - 70) < 1e-9, `${m.x},${m.y}`);
    assert.equal(m.rotation, 90);
  });
  it('the extent of a turned layer is its rotated bounding box', () => {
    const e = motionExtent(
      { x: 0, y: 0, width: 20, height: 10, scale: 1, rotation: 90 },
      { x0: 0, y0: 0, x1: 20, y1: 10 },
    );
    assert.ok(Math.abs(e.x0 - 5) < 1e-9 && Math.abs(e.x1 - 15) < 1e-9 && Math.abs(e.y0 + 5) < 1e-9);
  });
});
