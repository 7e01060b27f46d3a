/**
 * A clip's decoded planes made the layer's, in the page, as the worker's ffmpeg makes them
 * (worker/plan/video-source.ts clipFilter: `scale=W:H:flags=bicubic:out_range=tv`, then for
 * `cover` `crop` at the centre, `format=yuv420p`): each plane resampled on its own with the
 * bicubic kernel of libswscale (Keys' cubic, a = -0.6, widened by the ratio when it shrinks),
 * centre-aligned, then cut. The bytes then go to the frame graph's own video material, as the
 * worker's do: the same matrix, the same shader.
 */

/** libswscale's default bicubic: B = 0, C = 0.6. */
const A = -0.6;

function cubic(x: number): number {
  const t = Math.abs(x);
  if (t < 1) return ((A + 2) * t - (A + 3)) * t * t + 1;
  if (t < 2) return ((A * t - 5 * A) * t + 8 * A) * t - 4 * A;
  return 0;
}

/** For each output index of a window [from, from + n) of a `to`-long axis: its taps into a `size`-long axis. */
interface Taps {
  first: Int32Array;
  count: number;
  weights: Float32Array;
}

function taps(size: number, to: number, from: number, n: number): Taps {
  const ratio = size / to;
  const widen = Math.max(1, ratio);
  const count = Math.ceil(2 * widen) * 2;
  const first = new Int32Array(n);
  const weights = new Float32Array(n * count);
  for (let i = 0; i < n; i++) {
    const centre = (from + i + 0.5) * ratio - 0.5;
    const start = Math.floor(centre) - count / 2 + 1;
    first[i] = start;
    let sum = 0;
    for (let k = 0; k < count; k++) {
      const w = cubic((start + k - centre) / widen);
      weights[i * count + k] = w;
      sum += w;
    }
    for (let k = 0; k < count; k++) weights[i * count + k]! /= sum;
  }
  return { first, count, weights };
}

const cache = new Map<string, Taps>();
function tapsFor(size: number, to: number, from: number, n: number): Taps {
  const key = `${size},${to},${from},${n}`;
  let t = cache.get(key);
  if (!t) {
    if (cache.size > 64) cache.clear();
    t = taps(size, to, from, n);
    cache.set(key, t);
  }
  return t;
}

/**
 * Plane `src` (width x height, rows `stride` apart) scaled to `toWidth` x `toHeight`, of which the
 * window at (x0, y0) of `out` width x height is written into `out` (rows `outWidth` apart).
 */
export function scalePlane(
  src: Uint8Array,
  width: number,
  height: number,
  stride: number,
  toWidth: number,
  toHeight: number,
  x0: number,
  y0: number,
  outWidth: number,
  outHeight: number,
  out: Uint8Array,
): void {
  if (width === toWidth && height === toHeight) {
    for (let y = 0; y < outHeight; y++) {
      const row = (y + y0) * stride + x0;
      out.set(src.subarray(row, row + outWidth), y * outWidth);
    }
    return;
  }
  const h = tapsFor(width, toWidth, x0, outWidth);
  const v = tapsFor(height, toHeight, y0, outHeight);
  // Horizontal pass over every source row the vertical taps reach.
  const rows = new Float32Array(height * outWidth);
  for (let y = 0; y < height; y++) {
    const line = y * stride;
    for (let x = 0; x < outWidth; x++) {
      const start = h.first[x]!;
      let acc = 0;
      for (let k = 0; k < h.count; k++) {
        const sx = Math.min(width - 1, Math.max(0, start + k));
        acc += src[line + sx]! * h.weights[x * h.count + k]!;
      }
      rows[y * outWidth + x] = acc;
    }
  }
  for (let y = 0; y < outHeight; y++) {
    const start = v.first[y]!;
    for (let x = 0; x < outWidth; x++) {
      let acc = 0;
      for (let k = 0; k < v.count; k++) {
        const sy = Math.min(height - 1, Math.max(0, start + k));
        acc += rows[sy * outWidth + x]! * v.weights[y * v.count + k]!;
      }
      out[y * outWidth + x] = acc <= 0 ? 0 : acc >= 255 ? 255 : Math.round(acc);
    }
  }
}

/** A full-range plane brought to limited range (out_range=tv): luma 16-235, chroma 16-240. */
export function toLimitedRange(plane: Uint8Array, chroma: boolean): void {
  for (let i = 0; i < plane.length; i++) {
    plane[i] = chroma ? Math.round(128 + ((plane[i]! - 128) * 224) / 255) : Math.round(16 + (plane[i]! * 219) / 255);
  }
}

const RGB_TO_YUV: Record<'bt709' | 'bt601', [number, number]> = {
  // Kr, Kb
  bt709: [0.2126, 0.0722],
  bt601: [0.299, 0.114],
};

/**
 * RGBA (as a browser converted a frame it decodes into RGB itself, a hardware decoder's) back to
 * limited-range 4:2:0 planes with the plan's matrix: what the worker would have decoded.
 */
export function rgbaToPlanes(
  rgba: Uint8Array,
  width: number,
  height: number,
  matrix: 'bt709' | 'bt601',
): { y: Uint8Array; u: Uint8Array; v: Uint8Array } {
  const [kr, kb] = RGB_TO_YUV[matrix];
  const kg = 1 - kr - kb;
  const cw = width >> 1;
  const ch = height >> 1;
  const y = new Uint8Array(width * height);
  const u = new Uint8Array(cw * ch);
  const v = new Uint8Array(cw * ch);
  for (let i = 0, p = 0; i < width * height; i++, p += 4) {
    y[i] = Math.round(16 + 219 * ((kr * rgba[p]! + kg * rgba[p + 1]! + kb * rgba[p + 2]!) / 255));
  }
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const p = ((cy * 2 + dy) * width + cx * 2 + dx) * 4;
        r += rgba[p]!;
        g += rgba[p + 1]!;
        b += rgba[p + 2]!;
      }
      const luma = (kr * r + kg * g + kb * b) / 4 / 255;
      u[cy * cw + cx] = Math.round(128 + 224 * ((b / 4 / 255 - luma) / (2 * (1 - kb))));
      v[cy * cw + cx] = Math.round(128 + 224 * ((r / 4 / 255 - luma) / (2 * (1 - kr))));
    }
  }
  return { y, u, v };
}
