/**
 * A frame redrawn only in its dirty rectangles (worker/plan/dirty-rects.ts, rect-readback.ts) must be
 * the frame drawn whole, byte for byte: layers moving, turning, scaling, fading, appearing and
 * vanishing over 24 frames, on real headless-gl, each frame compared with a second renderer that
 * draws every frame whole.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFrameRenderer } from '../../worker/draw/gpu/frame-renderer.ts';
import { workerFrameHost } from '../../worker/draw/gpu/worker-host.ts';
import { dirtyRects } from '../../worker/plan/dirty-rects.ts';
import type { LayerState } from '../../worker/plan/frame-state.ts';
import { glTestEnvironment } from './fixtures.ts';

const W = 640;
const H = 360;
const { texture } = glTestEnvironment('fw-dirty-rects-');

describe('dirty rectangles', () => {
  const checker = texture('checker.rgba', 64, 64, (x, y) => [(x * 4) & 255, ((x ^ y) & 8) * 30, (y * 4) & 255, 255]);
  const ramp = texture('ramp.rgba', 90, 30, (x, y) => [250, 200 - y * 3, 40, Math.round((x / 89) * 255)]);
  const disc = texture('disc.rgba', 48, 48, (x, y) => {
    const d = Math.hypot(x - 23.5, y - 23.5);
    return [30, 220, 120, d < 20 ? 255 : d < 24 ? Math.round(((24 - d) / 4) * 255) : 0];
  });

  /** Frame n's layers: a static backdrop picture, a sliding ramp, a turning and scaling disc, a blinking box. */
  function frameLayers(n: number): LayerState[] {
    const layers: LayerState[] = [
      { layer: 0, texture: checker, x: 20, y: 20, width: 200, height: 200, scale: 1, opacity: 1 },
      { layer: 1, texture: ramp, x: 60 + n * 7.3, y: 150, width: 90, height: 30, scale: 1, opacity: 1 },
      {
        layer: 2,
        texture: disc,
        x: 420,
        y: 60 + Math.sin(n / 3) * 20,
        width: 48,
        height: 48,
        scale: 1,
        scaleY: 1 + n * 0.05,
        rotation: n * 11,
        opacity: 0.4 + (n % 5) * 0.12,
      },
    ];
    // Appears on frame 6, vanishes on frame 15, over the static picture.
    if (n >= 6 && n < 15)
      layers.push({ layer: 3, texture: checker, x: 150, y: 250, width: 64, height: 64, scale: 1.5, opacity: 0.7 });
    return layers;
  }

  it('24 frames drawn by rectangles equal the same frames drawn whole', () => {
    const byRects = createFrameRenderer(W, H, workerFrameHost());
    const whole = createFrameRenderer(W, H, workerFrameHost());
    const bg: [number, number, number] = [20, 30, 70];
    try {
      let prev: LayerState[] | undefined;
      let partial = 0;
      for (let n = 0; n < 24; n++) {
        const layers = frameLayers(n);
        const rects = dirtyRects(prev, layers, W, H);
        if (rects) partial++;
        const a = Uint8Array.from(byRects.render(bg, layers, rects));
        const b = whole.render(bg, layers);
        let differ = 0;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
        assert.equal(differ, 0, `frame ${n}: ${differ} bytes differ (rectangles ${JSON.stringify(rects)})`);
        prev = layers;
      }
      // Every frame after the first went by rectangles, and they were a small part of the frame.
      assert.equal(partial, 23);
    } finally {
      byRects.dispose();
      whole.dispose();
    }
  });

  it('rectangles too wide for one shelf of the staging target (three bars) still equal the whole frame', () => {
    const byRects = createFrameRenderer(W, H, workerFrameHost());
    const whole = createFrameRenderer(W, H, workerFrameHost());
    const bg: [number, number, number] = [200, 190, 180];
    // Three fading bars across the frame, far apart: three rectangles of 616 x 48, whose blocks
    // (154 texels wide each) take two shelves of the 320-texel staging target.
    const bars = (opacity: number): LayerState[] =>
      [12, 160, 308].map((y, i) => ({ layer: i, texture: ramp, x: 16, y, width: 600, height: 40, scale: 1, opacity }));
    try {
      byRects.render(bg, bars(1));
      const rects = dirtyRects(bars(1), bars(0.5), W, H);
      assert.equal(rects?.length, 3);
      const a = Uint8Array.from(byRects.render(bg, bars(0.5), rects));
      const b = whole.render(bg, bars(0.5));
      let differ = 0;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
      assert.equal(differ, 0, `${differ} bytes differ`);
    } finally {
      byRects.dispose();
      whole.dispose();
    }
  });

  it('a rectangle that misses a change shows: the comparison above can fail', () => {
    const byRects = createFrameRenderer(W, H, workerFrameHost());
    const whole = createFrameRenderer(W, H, workerFrameHost());
    const bg: [number, number, number] = [20, 30, 70];
    try {
      byRects.render(bg, frameLayers(0));
      // The ramp moved, but only the disc's corner is redrawn.
      const a = Uint8Array.from(byRects.render(bg, frameLayers(1), [{ x0: 400, y0: 40, x1: 496, y1: 140 }]));
      const b = whole.render(bg, frameLayers(1));
      let differ = 0;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
      assert.ok(differ > 100, `${differ} bytes differ`);
    } finally {
      byRects.dispose();
      whole.dispose();
    }
  });
});
