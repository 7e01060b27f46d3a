/**
 * A layer's visual effects as the render plan carries them (plain JSON, output pixels, colours as
 * numbers): made from an image or video element's fields (movie/v1/effects.ts) by preparation,
 * drawn by worker/draw/gpu/effects-shader.ts. Pure.
 */
import { DEFAULT_CHROMA_KEY, DEFAULT_FILL_BLUR } from '../../movie/v1/effects.ts';
import { parseColor, type Rgba } from './color.ts';

export interface LayerEffects {
  /** Multiplies the layer's opacity (frame-state.ts). */
  opacity?: number;
  /** Gaussian blur radius, output pixels. */
  blur?: number;
  cornerRadius?: number;
  border?: { width: number; color: Rgba };
  filters?: { brightness: number; contrast: number; saturation: number; grayscale: number };
  /** The key's 8-bit U and V in the source's matrix (images: BT.601), ffmpeg chromakey's thresholds. */
  chromaKey?: { u: number; v: number; similarity: number; smoothness: number };
  /** The blurred copy behind a contained picture: its box relative to the layer's top-left corner. */
  background?: { x: number; y: number; width: number; height: number; blur: number; brightness: number };
}

interface EffectFields {
  opacity?: number | undefined;
  blur?: number | undefined;
  cornerRadius?: number | undefined;
  border?: { width: number; color: string } | undefined;
  filters?:
    | {
        brightness?: number | undefined;
        contrast?: number | undefined;
        saturation?: number | undefined;
        grayscale?: number | undefined;
      }
    | undefined;
  chromaKey?:
    | { color?: string | undefined; similarity?: number | undefined; smoothness?: number | undefined }
    | undefined;
  background?: { blur?: number | undefined; brightness?: number | undefined } | undefined;
}

/** Kr and Kb of the Y'CbCr matrices (Y = Kr R + (1 - Kr - Kb) G + Kb B). */
const KRB = { bt709: [0.2126, 0.0722], bt601: [0.299, 0.114] } as const;

/** 8-bit limited-range U and V of an RGB colour in `matrix`. */
function chromaOf(rgb: readonly number[], matrix: keyof typeof KRB): { u: number; v: number } {
  const [kr, kb] = KRB[matrix];
  const [r, g, b] = [rgb[0]! / 255, rgb[1]! / 255, rgb[2]! / 255];
  const y = kr * r + (1 - kr - kb) * g + kb * b;
  return { u: 128 + (224 * (b - y)) / (2 * (1 - kb)), v: 128 + (224 * (r - y)) / (2 * (1 - kr)) };
}

/**
 * The plan's effects of an element drawn as `drawn` (top-left and size, output pixels) inside its
 * box; undefined when it has none (the layer is drawn exactly as before effects existed).
 * `k` scales document pixels to output pixels (drafts); `matrix` is a video's (images: bt601).
 */
export function layerEffectsOf(
  el: EffectFields & { fit?: string | undefined },
  k: number,
  drawn: { x: number; y: number; width: number; height: number },
  box: { x: number; y: number; width: number; height: number },
  matrix: keyof typeof KRB = 'bt601',
): LayerEffects | undefined {
  const out: LayerEffects = {};
  if (el.opacity !== undefined && el.opacity < 1) out.opacity = el.opacity;
  if (el.blur && el.blur > 0) out.blur = el.blur * k;
  const half = Math.min(drawn.width, drawn.height) / 2;
  if (el.cornerRadius && el.cornerRadius > 0) out.cornerRadius = Math.min(el.cornerRadius * k, half);
  if (el.border) out.border = { width: Math.min(el.border.width * k, half), color: parseColor(el.border.color) };
  const f = el.filters;
  if (f) {
    const filters = {
      brightness: f.brightness ?? 1,
      contrast: f.contrast ?? 1,
      saturation: f.saturation ?? 1,
      grayscale: f.grayscale ?? 0,
    };
    if (filters.brightness !== 1 || filters.contrast !== 1 || filters.saturation !== 1 || filters.grayscale !== 0)
      out.filters = filters;
  }
  if (el.chromaKey) {
    const c = el.chromaKey;
    out.chromaKey = {
      ...chromaOf(parseColor(c.color ?? DEFAULT_CHROMA_KEY.color), matrix),
      similarity: c.similarity ?? DEFAULT_CHROMA_KEY.similarity,
      smoothness: c.smoothness ?? DEFAULT_CHROMA_KEY.smoothness,
    };
  }
  // Only a contained picture leaves part of its box empty.
  const fit = el.fit ?? 'contain';
  if (el.background && fit === 'contain' && (box.width > drawn.width || box.height > drawn.height)) {
    out.background = {
      x: box.x - drawn.x,
      y: box.y - drawn.y,
      width: box.width,
      height: box.height,
      blur: (el.background.blur ?? DEFAULT_FILL_BLUR) * k,
      brightness: el.background.brightness ?? 1,
    };
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * What a layer covers on screen, scaled about its centre: its own rectangle, or its box when a
 * blurred background fills it. Columns [x0, x1), rows [y0, y1), fractional.
 */
export function layerExtent(s: {
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
  effects?: LayerEffects | undefined;
}): { x0: number; y0: number; x1: number; y1: number } {
  const cx = s.x + s.width / 2;
  const cy = s.y + s.height / 2;
  const bg = s.effects?.background;
  const r = bg
    ? { x: s.x + bg.x, y: s.y + bg.y, width: bg.width, height: bg.height }
    : { x: s.x, y: s.y, width: s.width, height: s.height };
  return {
    x0: cx + (r.x - cx) * s.scale,
    x1: cx + (r.x + r.width - cx) * s.scale,
    y0: cy + (r.y - cy) * s.scale,
    y1: cy + (r.y + r.height - cy) * s.scale,
  };
}
