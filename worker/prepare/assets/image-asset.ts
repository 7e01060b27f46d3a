import sharp from 'sharp';
import { AppError } from '../../../lib/errors.ts';
import type { Raster } from '../text/text-raster.ts';
import { decodeAnimation } from './animated-image.ts';
import { isSvg, rasteriseSvg } from './svg-image.ts';

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml', 'image/avif'];
const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'svg', 'heif']);

export type Fit = 'contain' | 'cover' | 'fill';

/** The SVG document each SVG image's raster was drawn from. */
const svgSources = new WeakMap<Raster, Buffer>();

/**
 * The SVG document `r` (decodeImage's result) was drawn from, when it is an SVG: to draw it again
 * with more texels for a zoom (worker/prepare/zoom-rasters.ts).
 */
export function svgSource(r: Raster): Buffer | undefined {
  return svgSources.get(r);
}

/**
 * Decodes an image and fits it into a box of `width` x `height` output pixels: contain letterboxes
 * with transparency (the box shrinks to the image), cover crops the centre, fill stretches. An SVG
 * (by content) is rasterised at that size with its external references stripped (svg-image.ts);
 * an animated GIF or WebP decodes every frame (animated-image.ts: the first is returned, the others
 * hang off it, imageAnimation). Undecodable bytes are ASSET_INVALID at `path`.
 */
export async function decodeImage(
  bytes: Buffer,
  width: number,
  height: number,
  fit: Fit,
  path: string,
): Promise<Raster> {
  if (isSvg(bytes)) {
    const r = await rasteriseSvg(bytes, width, height, fit, path);
    svgSources.set(r, bytes);
    return r;
  }
  const animated = await decodeAnimation(bytes, width, height, fit, path);
  if (animated) return animated;
  try {
    const img = sharp(bytes, { pages: 1, density: 144, limitInputPixels: 100_000_000 });
    const meta = await img.metadata();
    if (!meta.format || !FORMATS.has(meta.format)) {
      throw new Error(`format ${meta.format ?? 'unknown'} is not PNG, JPEG, WebP, GIF or SVG`);
    }
    // An SVG that isSvg did not recognise (compressed, UTF-16): not read, as it was not sanitised.
    if (meta.format === 'svg') throw new Error('an SVG must be uncompressed UTF-8 text');
    const resized = img
      .rotate()
      .resize(width, height, {
        fit: fit === 'contain' ? 'inside' : fit,
        position: 'centre',
        kernel: 'lanczos3',
      })
      .ensureAlpha()
      .raw();
    const { data, info } = await resized.toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (err) {
    throw new AppError('ASSET_INVALID', `The image could not be decoded: ${(err as Error).message}`, {
      path,
      cause: err,
    });
  }
}
