/** Credits per weighted render minute (spec section 8). */
export const CREDITS_PER_MINUTE = 10;

/**
 * Price weight of a frame size: 1 up to 1920x1080 pixels, 2 up to 2560x1440, 4 above. Measured in
 * pixels, so a portrait 1080x1920 frame weighs the same as a landscape one.
 */
export function frameWeight(width: number, height: number): 1 | 2 | 4 {
  const pixels = width * height;
  if (pixels <= 1920 * 1080) return 1;
  if (pixels <= 2560 * 1440) return 2;
  return 4;
}

export interface MeterInput {
  durationSec: number;
  /** Full-resolution frame size of the movie (a draft's halving is priced by `draft`, not twice). */
  width: number;
  height: number;
  draft: boolean;
}

/** Weighted render minutes: minutes x frame weight, halved for drafts. */
export function weightedMinutes(input: MeterInput): number {
  const minutes = Math.max(0, input.durationSec) / 60;
  return minutes * frameWeight(input.width, input.height) * (input.draft ? 0.5 : 1);
}

/** Whole credits for a render, rounded up; any non-empty render costs at least one. */
export function renderCredits(input: MeterInput): number {
  const exact = weightedMinutes(input) * CREDITS_PER_MINUTE;
  if (exact <= 0) return 0;
  // Round away float noise first (0.1 min x 10 must be 1, not 2).
  return Math.max(1, Math.ceil(Math.round(exact * 1e6) / 1e6));
}
