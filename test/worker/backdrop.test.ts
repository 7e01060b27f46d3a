/**
 * A full-frame BT.709 clip under other layers takes the backdrop path (its planes copied, the
 * layers over it blended on the CPU in YUV); anything else is drawn by GL. The two must give the
 * same frame: this renders the same layers both ways, on real headless-gl, and compares the bytes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFrameRenderer } from '../../worker/draw/gpu/frame-renderer.ts';
import { workerFrameHost } from '../../worker/draw/gpu/worker-host.ts';
import { rgbToYuv709 } from '../../worker/draw/gpu/yuv-layout.ts';
import type { LayerState } from '../../worker/plan/frame-state.ts';
import { glTestEnvironment } from './fixtures.ts';

const W = 320;
const H = 180;
const { texture } = glTestEnvironment('fw-backdrop-');

/**
 * A smooth yuv420p frame, as a decoded clip would be: colour gradients converted with BT.709 (in
 * gamut: a YUV triple outside RGB would be clipped by either path, differently), chroma taken
 * at each 2x2 block's top-left pixel.
 */
function clipFrame(shift: number): Uint8Array {
  const f = new Uint8Array((W * H * 3) / 2);
  const cw = W / 2;
  // Smooth: GL samples the chroma planes bilinearly, so a sharp chroma edge would differ there.
  const rgb = (x: number, y: number) =>
    rgbToYuv709(30 + (x * 150) / W + shift, 30 + (y * 190) / H, 60 + ((x + y) * 120) / (W + H));
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const [Y, U, V] = rgb(x, y);
      f[y * W + x] = Y;
      if (x % 2 === 0 && y % 2 === 0) {
        f[W * H + (y / 2) * cw + x / 2] = U;
        f[W * H + (W * H) / 4 + (y / 2) * cw + x / 2] = V;
      }
    }
  return f;
}

describe('the backdrop path and the GL path give the same frame', () => {
  const clip = (pixels: Uint8Array, content: number): LayerState => ({
    layer: 0,
    texture: { file: 'video:clip', width: W, height: H },
    x: 0,
    y: 0,
    width: W,
    height: H,
    scale: 1,
    opacity: 1,
    pixels,
    content,
    matrix: 'bt709',
  });
  const layers = (pixels: Uint8Array, content: number): LayerState[] => {
    const solid = texture('solid.rgba', 60, 40, () => [250, 40, 20, 255]);
    const ramp = texture('ramp.rgba', 120, 30, (x) => [255, 255, 255, Math.round((x / 119) * 255)]);
    return [
      clip(pixels, content),
      { layer: 1, texture: solid, x: 20, y: 24, width: 60, height: 40, scale: 1, opacity: 1 },
      { layer: 2, texture: ramp, x: 150, y: 100, width: 120, height: 30, scale: 1, opacity: 1 },
      // Faded and overlapping the first: blending order matters here.
      { layer: 3, texture: solid, x: 50, y: 40, width: 60, height: 40, scale: 1, opacity: 0.5 },
    ];
  };

  for (const shift of [0, 37]) {
    it(`frame ${shift}: every byte within 2 (luma) and 3 (chroma) of GL's`, () => {
      const fast = createFrameRenderer(W, H, workerFrameHost());
      const gl = createFrameRenderer(W, H, workerFrameHost(), { backdrop: false });
      try {
        const pixels = clipFrame(shift);
        // Twice each: the second frame reuses the cached layers over the clip.
        fast.render([0, 0, 0], layers(clipFrame(shift + 1), shift + 1));
        const a = Uint8Array.from(fast.render([0, 0, 0], layers(pixels, shift)));
        const b = Uint8Array.from(gl.render([0, 0, 0], layers(pixels, shift)));
        let lumaMax = 0;
        let chromaMax = 0;
        for (let i = 0; i < a.length; i++) {
          const d = Math.abs(a[i]! - b[i]!);
          if (i < W * H) lumaMax = Math.max(lumaMax, d);
          else chromaMax = Math.max(chromaMax, d);
        }
        assert.ok(lumaMax <= 2, `luma differs by up to ${lumaMax}`);
        assert.ok(chromaMax <= 3, `chroma differs by up to ${chromaMax}`);
        // Not trivially equal: the layers are there (a red block over the clip).
        const v = W * H + (W * H) / 4 + 20 * (W / 2) + 15; // V at (30, 40): inside the red block
        assert.ok(a[v]! > 200 && pixels[v]! < 150, `the block covers the clip: V ${a[v]} over ${pixels[v]}`);
      } finally {
        fast.dispose();
        gl.dispose();
      }
    });
  }

  it('copies the clip as it is where nothing covers it', () => {
    const r = createFrameRenderer(W, H, workerFrameHost());
    try {
      const pixels = clipFrame(5);
      const out = r.render([0, 0, 0], layers(pixels, 5));
      assert.equal(out[170 * W + 10], pixels[170 * W + 10]);
      assert.equal(out[W * H + 80 * (W / 2) + 5], pixels[W * H + 80 * (W / 2) + 5]);
    } finally {
      r.dispose();
    }
  });
});
