import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { easingOf, springAt } from '../../movie/easing.ts';
import type { MotionTrack } from '../../movie/motion.ts';
import { maxScaleOf } from '../plan/animate.ts';
import { textureAt } from '../plan/frame-state.ts';
import type { LayerPlan } from '../plan/plan.ts';
import { MAX_ZOOM_RASTER, zoomedSize, zoomScales } from './zoom-rasters.ts';

const scaleTrack = (property: 'scaleX' | 'scaleY', keys: [number, number, string?][]): MotionTrack => ({
  property,
  keys: keys.map(([sec, value, e]) => ({ sec, value, easing: easingOf(e) })),
});

describe('zoom rasters', () => {
  it('copies at the largest scale shown, halving down to just above 1, capped at 4x and 4096 texels', () => {
    assert.deepEqual(zoomScales(1, 300, 100), []);
    assert.deepEqual(zoomScales(0.5, 300, 100), []);
    assert.deepEqual(zoomScales(1.01, 300, 100), []);
    assert.deepEqual(zoomScales(1.05, 300, 100), [1.05]);
    assert.deepEqual(zoomScales(2, 300, 100), [2]);
    assert.deepEqual(zoomScales(3, 300, 100), [1.5, 3]);
    assert.deepEqual(zoomScales(4, 300, 100), [2, 4]);
    assert.deepEqual(zoomScales(10, 300, 100), [2, MAX_ZOOM_RASTER]);
    // 3000 texels wide: at most 4096 / 3000 times.
    assert.deepEqual(zoomScales(3, 3000, 100), [4096 / 3000]);
    assert.deepEqual(zoomScales(3, 4096, 100), []);
  });

  it('a copy is whole texels, the same rectangle', () => {
    assert.deepEqual(zoomedSize({ width: 101, height: 40 }, 1.5), { width: 152, height: 60 });
    assert.deepEqual(zoomedSize({ width: 3, height: 3 }, 1.1), { width: 3, height: 3 });
  });

  it('the largest scale is found at the frames and keys, overshoot included; 1 without scale tracks', () => {
    assert.equal(maxScaleOf(undefined, 2, 30), 1);
    const linear = [
      scaleTrack('scaleX', [
        [0, 1],
        [1, 1.5],
      ]),
    ];
    assert.equal(maxScaleOf(linear, 2, 30), 1.5);
    // Keys past the element's end do not count.
    assert.equal(maxScaleOf(linear, 0.5, 30), 1.25);
    assert.equal(
      maxScaleOf(
        [
          scaleTrack('scaleY', [
            [0, 0.5],
            [1, 3],
          ]),
        ],
        1,
        10,
      ),
      3,
    );
    // A spring overshoots its last key: its peak, within a frame's sampling.
    const spring = [
      scaleTrack('scaleX', [
        [0, 1, 'spring(1, 100, 10)'],
        [1.5, 2],
      ]),
    ];
    const peak = Math.max(...Array.from({ length: 1500 }, (_, i) => 1 + springAt(1, 100, 10, i / 1000)));
    const found = maxScaleOf(spring, 1.5, 30);
    assert.ok(found > 2 && found <= peak && found > peak - 0.01, `${found} against ${peak}`);
  });

  it('a frame draws the least copy at or above its scale, its crop in that copy’s texels', () => {
    const tex = (w: number, h: number) => ({ file: `${w}x${h}`, width: w, height: h });
    const l = {
      texture: tex(100, 40),
      crop: { x0: 10, x1: 30, y0: 0, y1: 40 },
      zoomed: [
        { scale: 1.5, texture: tex(150, 60) },
        { scale: 3, texture: tex(300, 120) },
      ],
    } as unknown as LayerPlan;
    assert.equal(textureAt(l, 1).texture.file, '100x40');
    assert.deepEqual(textureAt(l, 0.5).crop, l.crop);
    assert.equal(textureAt(l, 1.2).texture.file, '150x60');
    assert.equal(textureAt(l, 1.5).texture.file, '150x60');
    assert.equal(textureAt(l, 2).texture.file, '300x120');
    assert.equal(textureAt(l, 5).texture.file, '300x120');
    assert.deepEqual(textureAt(l, 2).crop, { x0: 30, x1: 90, y0: 0, y1: 120 });
  });
});
