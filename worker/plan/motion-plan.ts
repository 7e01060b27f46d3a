/**
 * A document element's motion as keyframe tracks of its layer (movie/motion.ts): its `animate`
 * keys in output pixels and seconds from its start, and its `animation.in` / `animation.out`
 * presets expanded. Pure; run by preparation.
 */
import { AppError } from '../../lib/errors.ts';
import { easingOf } from '../../movie/easing.ts';
import {
  type CropRect,
  evaluateMotion,
  keyTimeSec,
  type MotionKey,
  type MotionProperty,
  type MotionTrack,
  type PresetMotion,
  presetTracks,
} from '../../movie/motion.ts';

type KeyIn<V> = { time: number | string; value: V; easing?: string | undefined };

/** The motion fields an element may have (text, image, video, audio, and what derives from image). */
export interface MotionFields {
  animation?:
    | {
        preset?: string | undefined;
        in?: { preset: string; duration?: number | undefined; easing?: string | undefined } | undefined;
        out?: { preset: string; duration?: number | undefined; easing?: string | undefined } | undefined;
      }
    | undefined;
  animate?: Partial<Record<string, KeyIn<number | CropRect>[]>> | undefined;
}

export interface MotionFrame {
  /** Output pixels per document pixel (drafts render smaller). */
  k: number;
  /** Output frame size. */
  width: number;
  height: number;
  /** The element's duration, seconds. */
  lengthSec: number;
  /** Where its box rests: left and top edges, output pixels (x and y keys are absolute). */
  boxLeft: number;
  boxTop: number;
  /** The element's JSON path, for findings. */
  path?: string | undefined;
}

const DEFAULT_SEC = 0.6;

const EPSILON = 1e-9;

/**
 * A track's keys in seconds. Validation checks key times against an element's explicit duration;
 * the duration found at render time (a clip's length, the scene's end) is checked here.
 */
function keysOf<V, W>(
  keys: KeyIn<V>[],
  lengthSec: number,
  map: (v: V) => W,
  at?: { path?: string | undefined; name: string },
): MotionKey<W>[] {
  let prev = Number.NEGATIVE_INFINITY;
  return keys.map((key, i) => {
    const sec = keyTimeSec(key.time, lengthSec);
    const where = at?.path ? `${at.path}.animate.${at.name}[${i}].time` : undefined;
    if (sec > lengthSec + EPSILON)
      throw new AppError(
        'VALIDATION_ERROR',
        `key time ${key.time} is past the element's end (it lasts ${+lengthSec.toFixed(3)} s)`,
        where ? { path: where } : {},
      );
    if (sec < prev - EPSILON)
      throw new AppError(
        'VALIDATION_ERROR',
        `keys must be in time order; ${key.time} (${+sec.toFixed(3)} s) comes before the key above it`,
        where ? { path: where } : {},
      );
    prev = sec;
    return { sec, value: map(key.value), easing: easingOf(key.easing) };
  });
}

/** The element's tracks, or undefined when it does not move. */
export function elementMotion(el: MotionFields, f: MotionFrame): MotionTrack[] | undefined {
  const tracks: MotionTrack[] = [];
  const a = el.animation;
  if (a && a.preset === undefined) {
    const presets: PresetMotion[] = [];
    for (const [slot, exit] of [
      [a.in, false],
      [a.out, true],
    ] as const) {
      if (!slot) continue;
      presets.push({
        effect: slot.preset as PresetMotion['effect'],
        exit,
        durationSec: slot.duration ?? DEFAULT_SEC,
        ...(slot.easing === undefined ? {} : { easing: easingOf(slot.easing) }),
      });
    }
    tracks.push(...presetTracks(presets, f.lengthSec, f.width, f.height));
  }
  const keyed = el.animate ?? {};
  const num = (name: string, property: Exclude<MotionProperty, 'crop'>, map: (v: number) => number) => {
    const keys = keyed[name] as KeyIn<number>[] | undefined;
    if (keys?.length) tracks.push({ property, keys: keysOf(keys, f.lengthSec, map, { path: f.path, name }) });
  };
  num('x', 'dx', (v) => v * f.k - f.boxLeft);
  num('y', 'dy', (v) => v * f.k - f.boxTop);
  num('scale', 'scaleX', (v) => v);
  num('scale', 'scaleY', (v) => v);
  num('scaleX', 'scaleX', (v) => v);
  num('scaleY', 'scaleY', (v) => v);
  num('rotation', 'rotation', (v) => v);
  num('opacity', 'opacity', (v) => v);
  num('volume', 'volume', (v) => v);
  const crop = keyed.crop as KeyIn<CropRect>[] | undefined;
  if (crop?.length)
    tracks.push({
      property: 'crop',
      keys: keysOf(
        crop,
        f.lengthSec,
        (c) => ({ x: c.x * f.k, y: c.y * f.k, width: c.width * f.k, height: c.height * f.k }),
        { path: f.path, name: 'crop' },
      ),
    });
  return tracks.length ? tracks : undefined;
}

/** The box's resting left and top edges, output pixels, as preparation places it. */
export function boxOrigin(
  position: 'center' | { x: number; y: number } | undefined,
  boxW: number,
  boxH: number,
  k: number,
  W: number,
  H: number,
): { boxLeft: number; boxTop: number } {
  return position && position !== 'center'
    ? { boxLeft: position.x * k, boxTop: position.y * k }
    : { boxLeft: (W - boxW) / 2, boxTop: (H - boxH) / 2 };
}

/** An element's keyframed volume as a gain at seconds from its start, or undefined when it has none. */
export function volumeGain(el: MotionFields, lengthSec: number, path?: string): ((sec: number) => number) | undefined {
  const keys = el.animate?.volume as KeyIn<number>[] | undefined;
  if (!keys?.length) return undefined;
  const tracks: MotionTrack[] = [
    { property: 'volume', keys: keysOf(keys, lengthSec, (v) => v, { path, name: 'volume' }) },
  ];
  return (sec) => evaluateMotion(tracks, sec).volume;
}
