import { motionExtent, motionKey } from './animate.ts';
import type { LayerState } from './frame-state.ts';
import { layerExtent } from './layer-effects.ts';

/** A rectangle of the frame, [x0, x1) x [y0, y1) in image pixels (y down). */
export interface DirtyRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The box a layer covers on screen (scaled about its centre, turned, its blurred background
 * included), widened by 2 pixels for filtering at its edges. Not clamped to the frame. That takes
 * in a soft edge too (worker/draw/gpu/layer-edges.ts): its quad reaches one pixel past the side,
 * at most 1.42 past the box when turned (cos + sin of the turn), and GL fills only the pixels
 * whose centres are inside, so every pixel drawn lies within 1.92 of the box.
 */
export function layerBox(s: LayerState): DirtyRect {
  const { x0, y0, x1, y1 } = motionExtent(s, layerExtent(s));
  return { x0: x0 - 2, y0: y0 - 2, x1: x1 + 2, y1: y1 + 2 };
}

/** Rows a layer covers on screen, widened for filtering at its edges. */
export function layerRows(s: LayerState): [number, number] {
  const { y0, y1 } = layerBox(s);
  return [y0, y1];
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

const area = (r: DirtyRect) => (r.x1 - r.x0) * (r.y1 - r.y0);
const union = (a: DirtyRect, b: DirtyRect): DirtyRect => ({
  x0: Math.min(a.x0, b.x0),
  y0: Math.min(a.y0, b.y0),
  x1: Math.max(a.x1, b.x1),
  y1: Math.max(a.y1, b.y1),
});

/**
 * What one more rectangle costs, in pixels' worth of drawing: each is a scene pass of its own
 * (layers reaching into two rectangles are drawn twice) and a read-back. On bench-60s-motion any
 * value from 8,192 to 262,144 gave the same time within this machine's noise (22-26 s); this one
 * keeps far-apart changes apart and merges those a few dozen pixels apart.
 */
const RECT_COST_PX = 32_768;
/** At most this many rectangles a frame: the cheapest unions are taken until they fit. */
export const MAX_RECTS = 6;
/** Past this share of the frame, the whole frame is drawn in one pass (no per-rectangle work). */
const WHOLE_FRAME_SHARE = 0.7;

/**
 * Merges rectangles while a union costs less than the two apart (overlapping or close ones, each
 * rectangle costing RECT_COST_PX more), then the cheapest pairs until MAX_RECTS are left.
 */
function mergeRects(input: DirtyRect[]): DirtyRect[] {
  const rects = [...input];
  for (;;) {
    let best: [number, number, number] | undefined;
    for (let i = 0; i < rects.length; i++)
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i]!;
        const b = rects[j]!;
        const extra = area(union(a, b)) - area(a) - area(b) - RECT_COST_PX;
        if (!best || extra < best[2]) best = [i, j, extra];
      }
    if (!best || (best[2] > 0 && rects.length <= MAX_RECTS)) return rects;
    const [i, j] = best;
    rects[i] = union(rects[i]!, rects[j]!);
    rects.splice(j, 1);
  }
}

/**
 * The rectangles that differ between two consecutive frames of the same scene, pure: the boxes of
 * every layer that moved, turned, faded, appeared, vanished or showed a new video frame (where it
 * was and where it is), merged (mergeRects), and aligned outwards to columns of 8 and rows of 4
 * (whole texels of the Y, U and V planes in the packed layout: yuv-layout.ts). Undefined when
 * the whole frame must be drawn: the first frame, or changes over most of it.
 */
export function dirtyRects(
  prev: LayerState[] | undefined,
  next: LayerState[],
  width: number,
  height: number,
): DirtyRect[] | undefined {
  if (!prev) return undefined;
  const before = new Map(prev.map((s) => [s.layer, s]));
  const after = new Map(next.map((s) => [s.layer, s]));
  const boxes: DirtyRect[] = [];
  const add = (s: LayerState) => {
    const b = layerBox(s);
    const r = {
      x0: Math.max(0, Math.floor(b.x0 / 8) * 8),
      y0: Math.max(0, Math.floor(b.y0 / 4) * 4),
      x1: Math.min(width, Math.ceil(b.x1 / 8) * 8),
      y1: Math.min(height, Math.ceil(b.y1 / 4) * 4),
    };
    if (r.x1 > r.x0 && r.y1 > r.y0) boxes.push(r);
  };
  for (const [id, s] of after) {
    const p = before.get(id);
    if (!p || !same(p, s)) {
      add(s);
      if (p) add(p);
    }
  }
  for (const [id, p] of before) if (!after.has(id)) add(p);
  if (boxes.length === 0) return undefined;
  const rects = mergeRects(boxes);
  const covered = rects.reduce((sum, r) => sum + area(r), 0);
  return covered > WHOLE_FRAME_SHARE * width * height ? undefined : rects;
}
