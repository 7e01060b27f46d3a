/**
 * A layer's motion in one frame: its keyframe tracks (movie/motion.ts; presets already expanded
 * there, in `presetTracks`) evaluated at the frame's time and turned into where and how the
 * renderer draws the layer. The renderer applies the result (position, scale, rotation, opacity,
 * crop); it evaluates nothing itself.
 */
import {
  evaluateMotion,
  LEGACY_PRESETS,
  type MotionState,
  type MotionTrack,
  presetTracks,
  REST_MOTION,
  SLIDE_FRACTION,
  ZOOM_FROM,
} from '../../movie/motion.ts';
import type { AnimationPreset, LayerPlan } from './plan.ts';

export { SLIDE_FRACTION, ZOOM_FROM };

/** How an animation moves a layer away from its resting place at one instant (the preset view). */
export interface AnimationState {
  dx: number;
  dy: number;
  scale: number;
  opacity: number;
}

export const REST: AnimationState = Object.freeze({ dx: 0, dy: 0, scale: 1, opacity: 1 });

/** The tracks of a single preset (`{preset, duration}`) of an element lasting `lengthSec`. */
function legacyTracks(
  animation: { preset: AnimationPreset; durationSec: number } | undefined,
  lengthSec: number,
  frameW: number,
  frameH: number,
): MotionTrack[] {
  if (!animation) return [];
  const p = LEGACY_PRESETS[animation.preset]!;
  return presetTracks([{ ...p, durationSec: animation.durationSec }], lengthSec, frameW, frameH);
}

/**
 * State at time `t` of a single preset, through the keyframe model: entrance presets (`*-in`)
 * play over `durationSec` from the element's start (ease-out cubic), exit presets (`*-out`) end
 * at the element's end (ease-in cubic).
 */
export function animationState(
  animation: { preset: AnimationPreset; durationSec: number } | undefined,
  t: number,
  startSec: number,
  endSec: number,
  frameW: number,
  frameH: number,
): AnimationState {
  if (!animation) return REST;
  const m = evaluateMotion(legacyTracks(animation, endSec - startSec, frameW, frameH), t - startSec);
  return { dx: m.dx, dy: m.dy, scale: m.scaleX, opacity: m.opacity };
}

const tracksByLayer = new WeakMap<LayerPlan, MotionTrack[]>();

/** Every track of a layer: its own (document keyframes and presets) and its old-style preset; once per plan. */
export function layerTracks(l: LayerPlan, frameW: number, frameH: number): MotionTrack[] {
  let tracks = tracksByLayer.get(l);
  if (!tracks) {
    const legacy = legacyTracks(l.animation, l.endSec - l.startSec, frameW, frameH);
    tracks = l.motion?.length ? [...l.motion, ...legacy] : legacy;
    tracksByLayer.set(l, tracks);
  }
  return tracks;
}

/** The part of a layer's state the older fields do not carry (scaleY, rotation, mask). */
export function motionExtras(m: LayerMotion): Pick<LayerMotion, 'scaleY' | 'rotation' | 'mask'> {
  const out: Pick<LayerMotion, 'scaleY' | 'rotation' | 'mask'> = {};
  if (m.scaleY !== undefined) out.scaleY = m.scaleY;
  if (m.rotation !== undefined) out.rotation = m.rotation;
  if (m.mask !== undefined) out.mask = m.mask;
  return out;
}

/** Equal keys: equal scaleY, rotation and mask (empty when none is set: the older keys stay as they were). */
export function motionKey(s: Pick<LayerMotion, 'scaleY' | 'rotation' | 'mask'>): string {
  if (s.scaleY === undefined && s.rotation === undefined && s.mask === undefined) return '';
  const m = s.mask;
  return `~${s.scaleY?.toFixed(5) ?? ''},${s.rotation?.toFixed(4) ?? ''},${m ? `${m.x0.toFixed(2)} ${m.y0.toFixed(2)} ${m.x1.toFixed(2)} ${m.y1.toFixed(2)}` : ''}`;
}

/**
 * What a layer covers on screen given `e`, its extent scaled by `scale` about its centre: with a
 * vertical scale of its own and a rotation, the bounding box of that rectangle so turned.
 */
export function motionExtent(
  s: Pick<LayerMotion, 'x' | 'y' | 'scale' | 'scaleY' | 'rotation'> & { width: number; height: number },
  e: { x0: number; y0: number; x1: number; y1: number },
): { x0: number; y0: number; x1: number; y1: number } {
  if (s.scaleY === undefined && s.rotation === undefined) return e;
  const cx = s.x + s.width / 2;
  const cy = s.y + s.height / 2;
  let { x0, y0, x1, y1 } = e;
  if (s.scaleY !== undefined) {
    if (s.scale > 0) {
      y0 = cy + ((y0 - cy) * s.scaleY) / s.scale;
      y1 = cy + ((y1 - cy) * s.scaleY) / s.scale;
    } else {
      y0 = cy - (s.height * s.scaleY) / 2;
      y1 = cy + (s.height * s.scaleY) / 2;
    }
  }
  if (!s.rotation) return { x0, y0, x1, y1 };
  const th = (s.rotation * Math.PI) / 180;
  const c = Math.abs(Math.cos(th));
  const n = Math.abs(Math.sin(th));
  const hw = Math.max(cx - x0, x1 - cx);
  const hh = Math.max(cy - y0, y1 - cy);
  const rw = hw * c + hh * n;
  const rh = hw * n + hh * c;
  return { x0: cx - rw, y0: cy - rh, x1: cx + rw, y1: cy + rh };
}

/**
 * The largest scale, either axis, that `tracks` show a layer at over its `lengthSec` seconds: at
 * every frame of it (`fps`) and at every scale key (where a curve without overshoot peaks). What
 * preparation rasterises a zoomed text or shape at (worker/prepare/zoom-rasters.ts). 1 when no
 * track scales it.
 */
export function maxScaleOf(tracks: readonly MotionTrack[] | undefined, lengthSec: number, fps: number): number {
  const scaling = (tracks ?? []).filter((t) => t.property === 'scaleX' || t.property === 'scaleY');
  if (!scaling.length) return 1;
  const times = scaling.flatMap((t) => t.keys.map((k) => k.sec)).filter((s) => s >= 0 && s <= lengthSec);
  const frames = Math.ceil(lengthSec * fps);
  for (let f = 0; f <= frames; f++) times.push(Math.min(lengthSec, f / fps));
  let max = 0;
  for (const sec of times) {
    const m = evaluateMotion(scaling, sec);
    max = Math.max(max, Math.abs(m.scaleX), Math.abs(m.scaleY));
  }
  return max;
}

/** What the renderer needs of a layer's motion in one frame (see LayerState). */
export interface LayerMotion {
  x: number;
  y: number;
  scale: number;
  scaleY?: number | undefined;
  rotation?: number | undefined;
  opacity: number;
  /** Texels of the layer's own rectangle that show: [x0, x1) x [y0, y1) from its top-left. */
  mask?: { x0: number; y0: number; x1: number; y1: number } | undefined;
}

/**
 * Where a layer is drawn at movie time `t`. A piece of a text reveal (`l.unit`) moves with its
 * element as a whole (scale and rotation about the element's centre) and by its own track too.
 */
export function layerMotion(l: LayerPlan, tracks: readonly MotionTrack[], t: number): LayerMotion {
  const sec = t - l.startSec;
  const m: MotionState = tracks.length ? evaluateMotion(tracks, sec) : REST_MOTION;
  let opacity = m.opacity;
  let cx = l.x + l.width / 2;
  let cy = l.y + l.height / 2;
  let ox = l.x;
  let oy = l.y;
  if (l.unit) {
    const u = evaluateMotion(l.unit.tracks, t - l.unit.startSec);
    opacity *= u.opacity;
    const px = l.unit.x + l.unit.width / 2;
    const py = l.unit.y + l.unit.height / 2;
    const rx = (cx - px + u.dx) * m.scaleX;
    const ry = (cy - py + u.dy) * m.scaleY;
    const th = (m.rotation * Math.PI) / 180;
    cx = px + rx * Math.cos(th) - ry * Math.sin(th);
    cy = py + rx * Math.sin(th) + ry * Math.cos(th);
    ox = l.unit.x;
    oy = l.unit.y;
  }
  const out: LayerMotion = {
    x: l.unit ? cx + m.dx - l.width / 2 : l.x + m.dx,
    y: l.unit ? cy + m.dy - l.height / 2 : l.y + m.dy,
    scale: m.scaleX,
    opacity,
  };
  if (m.scaleY !== m.scaleX) out.scaleY = m.scaleY;
  if (m.rotation !== 0) out.rotation = m.rotation;
  if (m.crop) {
    // The crop is given on the element's whole picture; a piece shows its part of it.
    const x0 = Math.max(0, m.crop.x - (l.x - ox));
    const y0 = Math.max(0, m.crop.y - (l.y - oy));
    const x1 = Math.min(l.width, m.crop.x + m.crop.width - (l.x - ox));
    const y1 = Math.min(l.height, m.crop.y + m.crop.height - (l.y - oy));
    out.mask = { x0, y0, x1: Math.max(x0, x1), y1: Math.max(y0, y1) };
  }
  return out;
}
