/**
 * Animated GIF and WebP images: every frame decoded (sharp: libvips composites each frame onto the
 * ones before it, as the file's disposal says), fitted to the drawn size and written as a texture,
 * with its delay; the frame an output frame shows is picked by the cumulative delays
 * (`animatedFrameAt`), so an animated image plays frame-exactly like a video.
 *
 * Timing as browsers play it: a delay of 10 ms or less counts as 100 ms. Looping as the file says
 * (libvips' `loop`: how many times it plays, 0 forever; a GIF without a loop count plays once), after
 * which its last frame stays, as a clip's does.
 *
 * Memory is bounded: at most `ANIMATION_LIMITS.frames` frames, `sourcePixels` decoded pixels
 * (frames x the file's size) and `drawnPixels` pixels of frames at the drawn size (their textures,
 * on disk until drawn, then on the GPU while the scene lasts). A file past one is ASSET_INVALID at
 * the element's src, naming the limit, before anything is decoded. Preparation decodes its frames
 * when it writes the layer's textures, one animation at a time, each frame written at once.
 */
import sharp, { type Metadata, type Sharp } from 'sharp';
import { AppError } from '../../../lib/errors.ts';
import type { AnimatedLayerPlan, TextureRef } from '../../plan/plan.ts';
import type { Raster } from '../text/text-raster.ts';

const ANIMATION_LIMITS = {
  frames: 1000,
  /** Frames x width x height of the file as decoded (4 bytes each: 200 MB). */
  sourcePixels: 50_000_000,
  /** Frames x width x height at the size drawn (their textures, 4 bytes each: 200 MB). */
  drawnPixels: 50_000_000,
} as const;

/** Browsers show a frame delay of 10 ms or less as 100 ms; so do we. */
const SHORT_DELAY_MS = 10;
const SHORT_DELAY_AS_MS = 100;

/** An animated image decodeImage recognised: what its other frames are decoded from, later. */
export interface AnimationFrames {
  bytes: Buffer;
  /** The file's frame size, and the fitted size every frame is drawn at. */
  source: { width: number; height: number; pages: number };
  box: { width: number; height: number; fit: Fit };
  delaysMs: number[];
  /** Times the animation plays; 0: forever. */
  loops: number;
  path: string;
}

const animations = new WeakMap<Raster, AnimationFrames>();

/** The animation of a decoded image (decodeImage's result: its first frame) when it is animated. */
export function imageAnimation(r: Raster): AnimationFrames | undefined {
  return animations.get(r);
}

type Fit = 'contain' | 'cover' | 'fill';

/** The size sharp's resize gives a `w` x `h` picture fitted into `width` x `height`. */
function fittedSize(w: number, h: number, width: number, height: number, fit: Fit): [number, number] {
  if (fit !== 'contain') return [width, height];
  const s = Math.min(width / w, height / h);
  return [Math.max(1, Math.round(w * s)), Math.max(1, Math.round(h * s))];
}

const fitted = (input: Sharp, box: AnimationFrames['box']) =>
  input
    .resize(box.width, box.height, {
      fit: box.fit === 'contain' ? 'inside' : box.fit,
      position: 'centre',
      kernel: 'lanczos3',
    })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });

/**
 * An animated GIF or WebP (more than one frame): its limits checked and its first frame fitted
 * into `width` x `height`; the other frames are decoded when the layer is planned
 * (animatedLayerPlan), so a render holds one animation's frames in memory at a time. Undefined for
 * any other image (decoded as a still).
 */
export async function decodeAnimation(
  bytes: Buffer,
  width: number,
  height: number,
  fit: Fit,
  path: string,
): Promise<Raster | undefined> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
  } catch {
    return undefined; // not decodable here: the still decoder reports it
  }
  const pages = meta.pages ?? 1;
  if ((meta.format !== 'gif' && meta.format !== 'webp') || pages < 2 || !meta.width) return undefined;
  const w = meta.width;
  const h = meta.pageHeight ?? Math.floor((meta.height ?? 0) / pages);
  const [fw, fh] = fittedSize(w, h, width, height, fit);
  const tooMany = (what: string, n: number, limit: number) =>
    new AppError(
      'ASSET_INVALID',
      `The animated image has ${what} (${n.toLocaleString('en')}), more than the ${limit.toLocaleString('en')} a render decodes; use fewer or smaller frames`,
      { path },
    );
  if (pages > ANIMATION_LIMITS.frames) throw tooMany('too many frames', pages, ANIMATION_LIMITS.frames);
  if (pages * w * h > ANIMATION_LIMITS.sourcePixels)
    throw tooMany(`too many pixels: ${pages} frames of ${w}x${h}`, pages * w * h, ANIMATION_LIMITS.sourcePixels);
  if (pages * fw * fh > ANIMATION_LIMITS.drawnPixels)
    throw tooMany(
      `too many pixels at the drawn size: ${pages} frames of ${fw}x${fh}`,
      pages * fw * fh,
      ANIMATION_LIMITS.drawnPixels,
    );
  const box = { width, height, fit };
  try {
    const { data, info } = await fitted(sharp(bytes, { page: 0, pages: 1, limitInputPixels: false }), box);
    if (info.width !== fw || info.height !== fh) throw new Error('the first frame fitted to another size');
    const first: Raster = { data, width: fw, height: fh };
    const delaysMs = Array.from({ length: pages }, (_, i) => {
      const d = meta.delay?.[i] ?? SHORT_DELAY_AS_MS;
      return d <= SHORT_DELAY_MS ? SHORT_DELAY_AS_MS : d;
    });
    animations.set(first, {
      bytes,
      source: { width: w, height: h, pages },
      box,
      delaysMs,
      loops: meta.loop ?? 0,
      path,
    });
    return first;
  } catch (err) {
    throw new AppError('ASSET_INVALID', `The animated image could not be decoded: ${(err as Error).message}`, {
      path,
      cause: err,
    });
  }
}

/**
 * The plan of an animated layer: every frame decoded (libvips composites each onto the ones
 * before it, as the file's disposal says), fitted like the first and written as a texture at once
 * (frame 0 is `first`, the layer's own).
 */
export async function animatedLayerPlan(
  a: AnimationFrames,
  first: TextureRef,
  writeTexture: (r: Raster) => TextureRef,
): Promise<AnimatedLayerPlan> {
  const { width: w, height: h, pages } = a.source;
  const textures = [first];
  try {
    const { data, info } = await sharp(a.bytes, { animated: true, limitInputPixels: false })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const frameBytes = w * h * 4;
    if (info.width !== w || data.length < frameBytes * pages) throw new Error('the frames did not decode whole');
    for (let i = 1; i < pages; i++) {
      const page = data.subarray(i * frameBytes, (i + 1) * frameBytes);
      const r = await fitted(sharp(page, { raw: { width: w, height: h, channels: 4 } }), a.box);
      if (r.info.width !== first.width || r.info.height !== first.height)
        throw new Error(`frame ${i} fitted to another size`);
      textures.push(writeTexture({ data: r.data, width: first.width, height: first.height }));
    }
  } catch (err) {
    throw new AppError('ASSET_INVALID', `The animated image could not be decoded: ${(err as Error).message}`, {
      path: a.path,
      cause: err,
    });
  }
  const startsMs: number[] = [];
  let at = 0;
  for (const d of a.delaysMs) {
    startsMs.push(at);
    at += d;
  }
  return { textures, startsMs, lengthMs: at, loops: a.loops };
}
