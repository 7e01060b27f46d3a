import { motionExtent, motionKey } from './animate.ts';
import type { LayerState } from './gpu/frame-renderer.ts';
import { layerExtent } from './layer-effects.ts';

/** Rows a layer covers on screen (scaled about its centre), widened for filtering at its edges. */
export function layerRows(s: LayerState): [number, number] {
  // Its box when a blurred background fills it (layer-effects.ts).
  const { y0, y1 } = motionExtent(s, layerExtent(s));
  return [y0 - 2, y1 + 2];
}

function same(a: LayerState, b: LayerState): boolean {
  return (
    a.x === b.x &&
    a.y === b.y &&
    a.scale === b.scale &&
    a.opacity === b.opacity &&
    a.width === b.width &&
    a.content === b.content &&
    motionKey(a) === motionKey(b)
  );
}

/**
 * The band of rows that differs between two consecutive frames of the same scene, pure: the
 * union of the rows of every layer that moved, faded, appeared, vanished or showed a new video
 * frame, aligned outwards to
 * multiples of 4 (whole rows of the 4:2:0 chroma planes in the packed layout). Undefined when
 * the whole frame must be drawn.
 */
export function dirtyBand(
  prev: LayerState[] | undefined,
  next: LayerState[],
  height: number,
): { y0: number; y1: number } | undefined {
  if (!prev) return undefined;
  const before = new Map(prev.map((s) => [s.layer, s]));
  const after = new Map(next.map((s) => [s.layer, s]));
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  const add = (s: LayerState) => {
    const [a, b] = layerRows(s);
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
  };
  for (const [id, s] of after) {
    const p = before.get(id);
    if (!p || !same(p, s)) {
      add(s);
      if (p) add(p);
    }
  }
  for (const [id, p] of before) if (!after.has(id)) add(p);
  if (lo > hi) return undefined;
  const y0 = Math.max(0, Math.floor(lo / 4) * 4);
  const y1 = Math.min(height, Math.ceil(hi / 4) * 4);
  if (y1 <= y0) return undefined;
  return { y0, y1 };
}
