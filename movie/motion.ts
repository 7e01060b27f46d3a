/**
 * The one animation model: per-property keyframe tracks. A document gives them as `animate`
 * (`{ opacity: [{ time, value, easing }], x: [...] }`), its `animation` presets (entry `in`, exit
 * `out`, or the old single `{preset, duration}`) expand to tracks of the same kind in
 * `presetTracks`, and a text element's `textAnimation` gives each word or letter a track of its
 * own. The renderer only ever evaluates tracks (`evaluateMotion`). Pure; shared by validation,
 * preparation and the renderer.
 *
 * Values compose: offsets (x, y as moves from the resting place, rotation) add, factors (scale,
 * opacity, volume) multiply, a crop rectangle intersects. Before a track's first key it holds the
 * first value, after its last the last; a key's `easing` shapes the segment from it to the next.
 */
import { type Easing, ease, LINEAR } from './easing.ts';

export type MotionProperty = 'dx' | 'dy' | 'scaleX' | 'scaleY' | 'rotation' | 'opacity' | 'crop' | 'volume';

/** A crop (mask) rectangle in pixels from the top-left of the drawn picture. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MotionKey<V = number | CropRect> {
  /** Seconds from the element's start. */
  sec: number;
  value: V;
  /** Shapes the segment from this key to the next. */
  easing: Easing;
}

export type MotionTrack =
  | { property: Exclude<MotionProperty, 'crop'>; keys: MotionKey<number>[] }
  | { property: 'crop'; keys: MotionKey<CropRect>[] };

/** How an element differs from its resting state at one instant. */
export interface MotionState {
  dx: number;
  dy: number;
  scaleX: number;
  scaleY: number;
  /** Degrees, clockwise on screen. */
  rotation: number;
  opacity: number;
  crop?: CropRect | undefined;
  volume: number;
}

export const REST_MOTION: Readonly<MotionState> = Object.freeze({
  dx: 0,
  dy: 0,
  scaleX: 1,
  scaleY: 1,
  rotation: 0,
  opacity: 1,
  volume: 1,
});

/** Fraction of the frame a slide travels; zoom-in starts (and zoom-out ends) at this scale. */
export const SLIDE_FRACTION = 0.25;
export const ZOOM_FROM = 0.3;

/** The presets' curves: ease-out cubic 1 - (1 - p)^3 for entries, ease-in cubic p^3 for exits. */
const PRESET_EASE_OUT: Easing = Object.freeze({ kind: 'cubic-bezier', x1: 1 / 3, y1: 1, x2: 2 / 3, y2: 1 });
const PRESET_EASE_IN: Easing = Object.freeze({ kind: 'cubic-bezier', x1: 1 / 3, y1: 0, x2: 2 / 3, y2: 0 });

/** Preset effects of `animation.in` / `animation.out`: the direction is the way the element moves. */
export const MOTION_EFFECTS = ['fade', 'zoom', 'slide-up', 'slide-down', 'slide-left', 'slide-right'] as const;
export type MotionEffect = (typeof MOTION_EFFECTS)[number];

/** The old single presets: `*-in` plays from the element's start, `*-out` ends at its end. */
export const LEGACY_PRESETS: Record<string, { effect: MotionEffect; exit: boolean }> = {
  'fade-in': { effect: 'fade', exit: false },
  'fade-out': { effect: 'fade', exit: true },
  'zoom-in': { effect: 'zoom', exit: false },
  'zoom-out': { effect: 'zoom', exit: true },
  // "slide in from below": it moves up.
  'slide-in-up': { effect: 'slide-up', exit: false },
  'slide-in-down': { effect: 'slide-down', exit: false },
  // "in from the left": starts left of its place and moves right.
  'slide-in-left': { effect: 'slide-right', exit: false },
  'slide-in-right': { effect: 'slide-left', exit: false },
};

/** The state away from rest an effect enters from (or exits to), as track values. */
function hiddenValues(effect: MotionEffect, exit: boolean, frameW: number, frameH: number): [MotionProperty, number][] {
  const sign = exit ? -1 : 1;
  switch (effect) {
    case 'fade':
      return [['opacity', 0]];
    case 'zoom':
      return [
        ['scaleX', ZOOM_FROM],
        ['scaleY', ZOOM_FROM],
        ['opacity', 0],
      ];
    // Entering while moving up: it starts below its place; leaving while moving up: it ends above.
    case 'slide-up':
      return [
        ['dy', sign * SLIDE_FRACTION * frameH],
        ['opacity', 0],
      ];
    case 'slide-down':
      return [
        ['dy', -sign * SLIDE_FRACTION * frameH],
        ['opacity', 0],
      ];
    case 'slide-left':
      return [
        ['dx', sign * SLIDE_FRACTION * frameW],
        ['opacity', 0],
      ];
    case 'slide-right':
      return [
        ['dx', -sign * SLIDE_FRACTION * frameW],
        ['opacity', 0],
      ];
  }
}

const restValue = (p: MotionProperty) => (p === 'dx' || p === 'dy' || p === 'rotation' ? 0 : 1);

/** A preset's motion as one entry or exit. */
export interface PresetMotion {
  effect: MotionEffect;
  exit: boolean;
  durationSec: number;
  /** Default: the presets' ease-out cubic (entries) or ease-in cubic (exits). */
  easing?: Easing | undefined;
}

/**
 * THE expansion of presets to keyframe tracks: an entry goes from its hidden state at the element's
 * start to rest `durationSec` later; an exit from rest to its hidden state at the element's end.
 * `lengthSec` is the element's duration.
 */
export function presetTracks(presets: readonly PresetMotion[], lengthSec: number, frameW: number, frameH: number) {
  const tracks: MotionTrack[] = [];
  for (const p of presets) {
    const easing = p.easing ?? (p.exit ? PRESET_EASE_IN : PRESET_EASE_OUT);
    for (const [property, hidden] of hiddenValues(p.effect, p.exit, frameW, frameH)) {
      const rest = restValue(property);
      const keys: MotionKey<number>[] = p.exit
        ? [
            { sec: lengthSec - p.durationSec, value: rest, easing },
            { sec: lengthSec, value: hidden, easing: LINEAR },
          ]
        : [
            { sec: 0, value: hidden, easing },
            { sec: p.durationSec, value: rest, easing: LINEAR },
          ];
      tracks.push({ property: property as Exclude<MotionProperty, 'crop'>, keys });
    }
  }
  return tracks;
}

/** Where `sec` falls in a track: the segment's keys and the eased progress through it. */
function locate<V>(keys: readonly MotionKey<V>[], sec: number): { a: MotionKey<V>; b: MotionKey<V>; e: number } {
  const first = keys[0]!;
  // At a key's own instant its segment starts: a jump-start step shows already.
  if (keys.length === 1 || sec < first.sec) return { a: first, b: first, e: 0 };
  for (let i = 0; i < keys.length - 1; i++) {
    const a = keys[i]!;
    const b = keys[i + 1]!;
    if (sec < b.sec) {
      const span = b.sec - a.sec;
      const p = span > 0 ? (sec - a.sec) / span : 1;
      return { a, b, e: ease(a.easing, p, sec - a.sec) };
    }
  }
  const last = keys[keys.length - 1]!;
  return { a: last, b: last, e: 0 };
}

/** A number track's value at `sec` (seconds from the element's start). */
function trackValue(keys: readonly MotionKey<number>[], sec: number): number {
  const { a, b, e } = locate(keys, sec);
  return a === b ? a.value : a.value + (b.value - a.value) * e;
}

function cropValue(keys: readonly MotionKey<CropRect>[], sec: number): CropRect {
  const { a, b, e } = locate(keys, sec);
  if (a === b) return a.value;
  const mix = (u: number, v: number) => u + (v - u) * e;
  return {
    x: mix(a.value.x, b.value.x),
    y: mix(a.value.y, b.value.y),
    width: Math.max(0, mix(a.value.width, b.value.width)),
    height: Math.max(0, mix(a.value.height, b.value.height)),
  };
}

function intersect(a: CropRect, b: CropRect): CropRect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y),
  };
}

/** Every track at `sec` seconds from the element's start, composed. */
export function evaluateMotion(tracks: readonly MotionTrack[] | undefined, sec: number): MotionState {
  if (!tracks || tracks.length === 0) return REST_MOTION;
  const s: MotionState = { ...REST_MOTION };
  for (const t of tracks) {
    if (t.property === 'crop') {
      const c = cropValue(t.keys, sec);
      s.crop = s.crop ? intersect(s.crop, c) : c;
      continue;
    }
    const v = trackValue(t.keys, sec);
    switch (t.property) {
      case 'dx':
      case 'dy':
      case 'rotation':
        s[t.property] += v;
        break;
      default:
        s[t.property] *= v;
    }
  }
  s.opacity = Math.min(1, Math.max(0, s.opacity));
  s.volume = Math.max(0, s.volume);
  return s;
}

/** A keyframe time as written: seconds, or "NN%" of the element's duration. */
export function keyTimeSec(time: number | string, lengthSec: number): number {
  if (typeof time === 'number') return time;
  return (Number.parseFloat(time) / 100) * lengthSec;
}
