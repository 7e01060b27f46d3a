import { createRequire } from 'node:module';
import type { CanvasKit, Image } from 'canvaskit-wasm';

/**
 * CanvasKit: Skia compiled to WebAssembly, with SkParagraph (HarfBuzz shaping, ICU's bidi and
 * UAX #14 line breaking, font fallback per cluster, COLR colour glyphs). Loaded once per
 * process, on the first text drawn (~50 ms; 7 MB of WebAssembly).
 */
// A CommonJS module whose types declare an ES default export: required as what it is.
const init = createRequire(import.meta.url)('canvaskit-wasm') as typeof import('canvaskit-wasm').default;
let loading: Promise<CanvasKit> | undefined;

export function canvasKit(): Promise<CanvasKit> {
  loading ??= init();
  return loading;
}

/** A snapshot's pixels as straight-alpha sRGB RGBA bytes, the textures' layout; null when Skia cannot read it. */
export function readRgba(ck: CanvasKit, img: Image, width: number, height: number): Uint8Array | null {
  return img.readPixels(0, 0, {
    width,
    height,
    colorType: ck.ColorType.RGBA_8888,
    alphaType: ck.AlphaType.Unpremul,
    colorSpace: ck.ColorSpace.SRGB,
  }) as Uint8Array | null;
}
