/**
 * Layers over a full-frame clip (the "backdrop"), blended on the CPU in YUV. The clip's decoded
 * yuv420p planes are the frame's bytes already; the layers over it (titles, captions, a logo)
 * are drawn by GL one by one, each only when it changes, onto transparent black, read back
 * premultiplied, and kept as runs of covered pixels: opaque runs as the bytes to copy, translucent ones as a "keep"
 * factor and an "add" term per pixel. Each new clip frame then costs a copy per opaque run and
 * one multiply-add per translucent pixel, layer after layer in draw order (the same "over" as
 * GL's blending, which is linear, so it holds in YUV), not a GL pass. The conversion uses the YUV pass's own
 * coefficients and chroma siting (each 2x2 block's top-left pixel), and a test holds the two
 * paths' frames equal (test/worker/backdrop.test.ts).
 */
import { planeCoefficients } from './yuv-layout.ts';

/**
 * One plane's part of an overlay. Runs are [frame offset, length, opaque 1 | translucent 0]
 * triples. Translucent pixels blend in integers: out = (clip * keep + add + 127) / 255, with
 * keep = 255 - alpha and add = 255 x the premultiplied value (clip * keep + add <= 255 * 255, so
 * the division by 255 is exact by shifts).
 */
interface PlaneOverlay {
  runs: Int32Array;
  /** Opaque runs' bytes, in run order (a second array for V, chroma only). */
  bytes: Uint8Array;
  bytesV?: Uint8Array | undefined;
  /** Translucent runs' pixels, in run order. */
  keep: Uint8Array;
  add: Uint16Array;
  addV?: Uint16Array | undefined;
}

export interface YuvOverlay {
  luma: PlaneOverlay;
  /** Offsets in the U plane; V has the same layout a quarter frame further on. */
  chroma: PlaneOverlay;
}

const [YR, YG, YB, YO] = planeCoefficients('y');
const [UR, UG, UB, UO] = planeCoefficients('u');
const [VR, VG, VB, VO] = planeCoefficients('v');

/** The rectangle GL read back: columns [x0, x0 + width), rows [y0, y1) of the image; x0, y0 even. */
export interface ReadRect {
  x0: number;
  y0: number;
  width: number;
  y1: number;
}

/**
 * Collects one plane's runs while pixels are visited in offset order. Its buffers are scratch,
 * grown to the largest overlay seen and reused: `build` copies out what the overlay keeps.
 */
class PlaneBuilder {
  runs: number[] = [];
  bytes = new Uint8Array(0);
  bytesV: Uint8Array | undefined;
  keep = new Uint8Array(0);
  add = new Uint16Array(0);
  addV: Uint16Array | undefined;
  nBytes = 0;
  nBlend = 0;
  #run = -1;
  #next = -1;
  readonly #chroma: boolean;

  constructor(chroma: boolean) {
    this.#chroma = chroma;
  }

  reset(capacity: number): this {
    if (this.bytes.length < capacity) {
      this.bytes = new Uint8Array(capacity);
      this.keep = new Uint8Array(capacity);
      this.add = new Uint16Array(capacity);
      this.bytesV = this.#chroma ? new Uint8Array(capacity) : undefined;
      this.addV = this.#chroma ? new Uint16Array(capacity) : undefined;
    }
    this.runs = [];
    this.nBytes = 0;
    this.nBlend = 0;
    this.#run = -1;
    this.#next = -1;
    return this;
  }

  /** Adds the pixel at `offset`: opaque (alpha 255) or translucent. */
  push(offset: number, alpha: number, value: number, valueV: number): void {
    const opaque = alpha === 255 ? 1 : 0;
    if (this.#run < 0 || offset !== this.#next || this.runs[this.#run + 2] !== opaque) {
      this.#run = this.runs.length;
      this.runs.push(offset, 0, opaque);
    }
    this.runs[this.#run + 1]!++;
    this.#next = offset + 1;
    if (opaque) {
      this.bytes[this.nBytes] = Math.round(value);
      if (this.bytesV) this.bytesV[this.nBytes] = Math.round(valueV);
      this.nBytes++;
    } else {
      // value <= alpha (a premultiplied byte): add <= 255 * alpha.
      this.keep[this.nBlend] = 255 - alpha;
      this.add[this.nBlend] = Math.min(255 * alpha, Math.round(value * 255));
      if (this.addV) this.addV[this.nBlend] = Math.min(255 * alpha, Math.round(valueV * 255));
      this.nBlend++;
    }
  }

  build(): PlaneOverlay {
    return {
      runs: Int32Array.from(this.runs),
      bytes: this.bytes.slice(0, this.nBytes),
      bytesV: this.bytesV?.slice(0, this.nBytes),
      keep: this.keep.slice(0, this.nBlend),
      add: this.add.slice(0, this.nBlend),
      addV: this.addV?.slice(0, this.nBlend),
    };
  }
}

const lumaScratch = new PlaneBuilder(false);
const chromaScratch = new PlaneBuilder(true);

/**
 * The overlay from GL's read-back of `rect`: premultiplied RGBA, rows bottom-up (GL row order:
 * image row y is buffer row y1 - 1 - y). Only pixels with some alpha are kept.
 */
export function overlayFromRgba(rgba: Uint8Array, rect: ReadRect, frameWidth: number): YuvOverlay {
  const { x0, y0, width, y1 } = rect;
  const area = width * (y1 - y0);
  const luma = lumaScratch.reset(area);
  const chroma = chromaScratch.reset(Math.ceil(area / 4) + width);
  const cw = frameWidth / 2;
  for (let y = y0; y < y1; y++) {
    const row = (y1 - 1 - y) * width * 4;
    const chromaRow = (y & 1) === 0;
    for (let i = 0; i < width; i++) {
      const p = row + i * 4;
      const alpha = rgba[p + 3]!;
      if (alpha === 0) continue;
      const R = rgba[p]! / 255;
      const G = rgba[p + 1]! / 255;
      const B = rgba[p + 2]! / 255;
      const a = alpha / 255;
      const x = x0 + i;
      luma.push(y * frameWidth + x, alpha, 255 * (YR * R + YG * G + YB * B + YO * a), 0);
      if (chromaRow && (x & 1) === 0) {
        chroma.push(
          (y / 2) * cw + x / 2,
          alpha,
          255 * (UR * R + UG * G + UB * B + UO * a),
          255 * (VR * R + VG * G + VB * B + VO * a),
        );
      }
    }
  }
  return { luma: luma.build(), chroma: chroma.build() };
}

function blendPlane(frame: Uint8Array, base: number, o: PlaneOverlay, vBase: number): void {
  const { runs, bytes, bytesV, keep, add, addV } = o;
  let b = 0;
  let k = 0;
  for (let r = 0; r < runs.length; r += 3) {
    const at = base + runs[r]!;
    const n = runs[r + 1]!;
    if (runs[r + 2] === 1) {
      frame.set(bytes.subarray(b, b + n), at);
      if (bytesV) frame.set(bytesV.subarray(b, b + n), at + vBase);
      b += n;
      continue;
    }
    for (let i = 0; i < n; i++, k++) {
      const x = frame[at + i]! * keep[k]! + add[k]! + 127;
      frame[at + i] = (x + 1 + (x >> 8)) >> 8;
      if (addV) {
        const y = frame[at + i + vBase]! * keep[k]! + addV[k]! + 127;
        frame[at + i + vBase] = (y + 1 + (y >> 8)) >> 8;
      }
    }
  }
}

/** Blends `o` into a packed yuv420p frame in place. */
export function blendOverlay(frame: Uint8Array, width: number, height: number, o: YuvOverlay): void {
  blendPlane(frame, 0, o.luma, 0);
  blendPlane(frame, width * height, o.chroma, (width * height) / 4);
}

/**
 * An overlay image for ffmpeg's overlay filter (worker/plan/composite-plan.ts): GL's read-back of `width` x
 * `rows` (premultiplied RGBA, rows bottom-up) as straight-alpha yuva420p, planes Y, U, V, A, rows
 * top-down, written into `out`. Luma is each pixel's own colour in the YUV pass's coefficients.
 * The filter blends a chroma sample with the mean alpha of its 2x2 block, so each block's chroma
 * is its pixels' colours weighted by their alpha: blended, it is the mean of the four pixels'
 * blends, the block's true 4:2:0 value. Fully transparent pixels are left at 16 / 128 / 128 / 0.
 * The read-back may be part of a larger image (`at`), whose other pixels are left as they are.
 */
export function yuvaFromRgba(
  rgba: Uint8Array,
  width: number,
  rows: number,
  out: Uint8Array,
  /** Where the read-back lies in a larger image (`out`: outWidth x outRows; offsets even). */
  at: { x: number; y: number; outWidth: number; outRows: number } = { x: 0, y: 0, outWidth: width, outRows: rows },
): Uint8Array {
  const ow = at.outWidth;
  const area = ow * at.outRows;
  const cw = ow / 2;
  const uOff = area;
  const vOff = area + area / 4;
  const aOff = area + area / 2;
  const lumaOffset = 255 * YO;
  for (let y = 0; y < rows; y += 2) {
    for (let x = 0; x < width; x += 2) {
      let sa = 0;
      let sr = 0;
      let sg = 0;
      let sb = 0;
      for (let dy = 0; dy < 2; dy++) {
        const src = (rows - 1 - (y + dy)) * width * 4;
        for (let dx = 0; dx < 2; dx++) {
          const p = src + (x + dx) * 4;
          const a = rgba[p + 3]!;
          const o = (at.y + y + dy) * ow + at.x + x + dx;
          out[aOff + o] = a;
          if (a === 0) {
            out[o] = 16;
            continue;
          }
          const r = rgba[p]!;
          const g = rgba[p + 1]!;
          const b = rgba[p + 2]!;
          // Premultiplied over alpha: the pixel's straight colour, 0..1 x 255.
          out[o] = Math.min(255, Math.round(lumaOffset + (255 * (YR * r + YG * g + YB * b)) / a));
          sa += a;
          sr += r;
          sg += g;
          sb += b;
        }
      }
      const c = ((at.y + y) / 2) * cw + (at.x + x) / 2;
      if (sa === 0) {
        out[uOff + c] = 128;
        out[vOff + c] = 128;
        continue;
      }
      out[uOff + c] = Math.max(0, Math.min(255, Math.round(255 * UO + (255 * (UR * sr + UG * sg + UB * sb)) / sa)));
      out[vOff + c] = Math.max(0, Math.min(255, Math.round(255 * VO + (255 * (VR * sr + VG * sg + VB * sb)) / sa)));
    }
  }
  return out;
}
