/**
 * Zooms that stay sharp. Text, shapes and SVG pictures are rasterised at the size they are
 * placed; an animation that scales one above 1 would magnify that raster, and linear filtering
 * spreads each edge over as many pixels as the scale (a title zoomed to 2x has edges twice as
 * soft as the same text set at twice the size). So such a layer gets copies of its raster drawn
 * with more texels (the same picture, the same rectangle: `scale` times the texels on each side),
 * up to the largest scale its keyframes show it at (worker/plan/animate.ts maxScaleOf), and each
 * frame draws the least copy at or above its scale (worker/plan/frame-state.ts textureAt).
 *
 * The copies are that largest scale, half of it, a quarter ... down to just above 1: a frame then
 * shrinks the copy it draws by less than 2, where linear filtering (the layers' textures
 * have no mipmaps) still reads every texel, so a thin stroke neither vanishes nor flickers.
 * Memory is bounded: the copies' scale is at most MAX_ZOOM_RASTER and their sides at most
 * MAX_ZOOM_SIDE texels (about 4/3 of the largest copy in all: 16 + 4 + 1 times the raster at 4x).
 * Past them, the largest copy is magnified as any raster is.
 */
import type { TextureRef, ZoomedTexture } from '../plan/plan.ts';

/** An RGBA8 raster (text-raster.ts Raster; not imported, as text-raster.ts imports this). */
interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

/** The largest raster scale a zoomed layer is drawn at. */
export const MAX_ZOOM_RASTER = 4;
/** The longest side of a zoomed copy, texels (every GL the renderer runs on takes it). */
const MAX_ZOOM_SIDE = 4096;
/** A copy less than this much above 1 is not made: the raster magnified by that little is as sharp. */
const LEAST_ZOOM = 1.02;

/**
 * The scales to draw copies of a `width` x `height` raster at, ascending, for a layer shown at
 * up to `maxScale`: none when that is not above 1 (or the raster is already as large as allowed).
 */
export function zoomScales(maxScale: number, width: number, height: number): number[] {
  const top = Math.min(maxScale, MAX_ZOOM_RASTER, MAX_ZOOM_SIDE / Math.max(width, height, 1));
  const out: number[] = [];
  for (let k = top; k >= LEAST_ZOOM; k /= 2) out.unshift(k);
  return out;
}

/**
 * The size of a raster's copy at `scale`: whole texels, at least the raster's own. The copy is
 * drawn stretched to exactly that (`scale` per axis rounded), so it is the same rectangle.
 */
export function zoomedSize(r: { width: number; height: number }, scale: number): { width: number; height: number } {
  return {
    width: Math.max(r.width, Math.round(r.width * scale)),
    height: Math.max(r.height, Math.round(r.height * scale)),
  };
}

/** Draws and writes the copies at `scales` (in order, one at a time: one copy in memory at once). */
export async function zoomedTextures(
  scales: readonly number[],
  draw: (scale: number) => Promise<Raster>,
  write: (r: Raster) => TextureRef,
): Promise<ZoomedTexture[]> {
  const out: ZoomedTexture[] = [];
  for (const scale of scales) out.push({ scale, texture: write(await draw(scale)) });
  return out;
}
