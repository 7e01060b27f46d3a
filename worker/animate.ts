import type { AnimationPreset } from './plan.ts';

/** How an animation moves a layer away from its resting place at one instant. */
export interface AnimationState {
  dx: number;
  dy: number;
  scale: number;
  opacity: number;
}

export const REST: AnimationState = Object.freeze({ dx: 0, dy: 0, scale: 1, opacity: 1 });

/** Fraction of the frame a slide travels; zoom-in starts (and zoom-out ends) at this scale. */
export const SLIDE_FRACTION = 0.25;
export const ZOOM_FROM = 0.3;

const easeOutCubic = (p: number) => 1 - (1 - p) ** 3;
const easeInCubic = (p: number) => p ** 3;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** The state a preset starts from (entrances) or ends at (exits). */
function hidden(preset: AnimationPreset, frameW: number, frameH: number): AnimationState {
  switch (preset) {
    case 'fade-in':
    case 'fade-out':
      return { dx: 0, dy: 0, scale: 1, opacity: 0 };
    case 'zoom-in':
    case 'zoom-out':
      return { dx: 0, dy: 0, scale: ZOOM_FROM, opacity: 0 };
    case 'slide-in-up':
      return { dx: 0, dy: SLIDE_FRACTION * frameH, scale: 1, opacity: 0 };
    case 'slide-in-down':
      return { dx: 0, dy: -SLIDE_FRACTION * frameH, scale: 1, opacity: 0 };
    case 'slide-in-left':
      // "in from the left": starts left of its place and moves right.
      return { dx: -SLIDE_FRACTION * frameW, dy: 0, scale: 1, opacity: 0 };
    case 'slide-in-right':
      return { dx: SLIDE_FRACTION * frameW, dy: 0, scale: 1, opacity: 0 };
  }
}

const lerp = (a: AnimationState, b: AnimationState, t: number): AnimationState => ({
  dx: a.dx + (b.dx - a.dx) * t,
  dy: a.dy + (b.dy - a.dy) * t,
  scale: a.scale + (b.scale - a.scale) * t,
  opacity: a.opacity + (b.opacity - a.opacity) * t,
});

/**
 * State at time `t`. Entrance presets (`*-in`) play over `durationSec` from the element's start
 * (ease-out: fast, then settling); exit presets (`*-out`) end at the element's end (ease-in).
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
  const { preset, durationSec } = animation;
  const from = hidden(preset, frameW, frameH);
  if (preset.endsWith('-out')) {
    const p = clamp01((t - (endSec - durationSec)) / durationSec);
    return p <= 0 ? REST : lerp(REST, from, easeInCubic(p));
  }
  const p = clamp01((t - startSec) / durationSec);
  return p >= 1 ? REST : lerp(from, REST, easeOutCubic(p));
}
