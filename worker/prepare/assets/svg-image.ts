/**
 * SVG images: recognised by their content, stripped of every external reference, and rasterised
 * by sharp (librsvg) at the size they are drawn, so edges stay sharp at any size (never a fixed
 * raster scaled up).
 *
 * External references are never followed. librsvg loads nothing itself when it reads a buffer
 * (it has no base URL to resolve against: http, https and file references are refused, external
 * entities are not loaded; test/worker/svg-images.test.ts serves every kind of reference and sees
 * no request), and before it sees the text, `sanitiseSvg` neutralises them anyway, so a later
 * librsvg with another policy cannot fetch either: href/xlink:href values other than a fragment
 * (`#id`) or a data: URI become `#`, CSS url() likewise, @import rules and xml-stylesheet
 * instructions are dropped, and scripts (which librsvg never runs) are removed. The rewrite runs
 * over the whole text, entity declarations included, so an entity cannot smuggle a reference in.
 */
import sharp from 'sharp';
import { AppError } from '../../../lib/errors.ts';
import type { Raster } from '../text/text-raster.ts';

export type Fit = 'contain' | 'cover' | 'fill';

/** Seconds librsvg may spend rasterising one SVG before the render fails (ASSET_INVALID). */
const SVG_TIMEOUT_SEC = 20;
/** sharp's density bounds (dots per inch; 72 is the SVG's own pixel size). */
const MAX_DENSITY = 100_000;

/** Whether `bytes` is an SVG document (by content, not by the declared type): `<svg` near the start. */
export function isSvg(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 65_536)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return /^\s*</.test(head) && /<svg[\s>/]/i.test(head) && !/^\s*<(!doctype\s+)?html/i.test(head);
}

/** The SVG text with every reference outside the document neutralised (see the top of the file). */
export function sanitiseSvg(text: string): string {
  const local = (v: string) => /^\s*(#|data:)/i.test(v);
  return (
    text
      .replace(/<\?xml-stylesheet[\s\S]*?\?>/gi, '')
      .replace(/<script\b[\s\S]*?(<\/script\s*>|\/>)/gi, '')
      .replace(/@import\b[^;]*;?/gi, '')
      .replace(
        /\b((?:[\w-]+:)?href)(\s*=\s*)(["'])([\s\S]*?)\3/gi,
        (m, name: string, eq: string, q: string, v: string) => (local(v) ? m : `${name}${eq}${q}#${q}`),
      )
      // url(...) anywhere (style elements and attributes, presentation attributes, entity values).
      .replace(/url\(\s*(["']?)([\s\S]*?)\1\s*\)/gi, (m, _q: string, v: string) => (local(v) ? m : 'url(#)'))
  );
}

/**
 * Rasterises an SVG into a box of `width` x `height` pixels, fitted like any image: the density is
 * chosen so librsvg draws it at the fitted size (contain: the whole picture inside the box; cover:
 * filling it, cropped; fill: stretched). Undecodable SVG is ASSET_INVALID at `path`.
 */
export async function rasteriseSvg(
  bytes: Buffer,
  width: number,
  height: number,
  fit: Fit,
  path: string,
): Promise<Raster> {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const clean = Buffer.from(sanitiseSvg(text), 'utf8');
  try {
    // The SVG's own size in pixels (its width and height, or its viewBox).
    const meta = await sharp(clean, { density: 72 }).metadata();
    if (meta.format !== 'svg' || !meta.width || !meta.height) throw new Error('not an SVG document');
    const sx = width / meta.width;
    const sy = height / meta.height;
    const scale = fit === 'contain' ? Math.min(sx, sy) : Math.max(sx, sy);
    const density = Math.min(MAX_DENSITY, Math.max(1, 72 * scale));
    const { data, info } = await sharp(clean, { density, limitInputPixels: 8192 * 8192 * 4 })
      .timeout({ seconds: SVG_TIMEOUT_SEC })
      .resize(width, height, { fit: fit === 'contain' ? 'inside' : fit, position: 'centre', kernel: 'lanczos3' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (err) {
    throw new AppError('ASSET_INVALID', `The SVG image could not be drawn: ${(err as Error).message}`, {
      path,
      cause: err,
    });
  }
}
