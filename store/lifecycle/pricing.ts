import { outputKind } from '../../lib/output-formats.ts';
import { type Movie, outputFrame } from '../../movie/index.ts';
import type { RenderRow } from '../types.ts';

/**
 * Render pricing (docs/api.md, Plans). It lives with the lifecycle, which meters and settles every
 * finished render whichever executor ran it. `priceRender` is the one price of a render: the API
 * reserves `priceRender(render, estimatedSec)` at creation (api/renders/create-render.ts) and the
 * lifecycle charges `priceRender(row, durationSec)` at completion (render-lifecycle.ts `complete`).
 */

/** Credits per weighted render minute (docs/api.md, Plans). */
const CREDITS_PER_MINUTE = 10;

/**
 * A still (output.format png, jpeg, webp) is priced as this many seconds of video at its frame
 * size, whatever the movie's length: one frame is drawn, not the movie (docs/api.md, Stills). With
 * the one-credit minimum, a live still costs 1 credit at any size.
 */
const STILL_PRICED_SEC = 1;

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

/** What a finished render costs before it meets the balance. */
export interface RenderPrice {
  /** Weighted minutes, rounded to 4 decimals (the `meteredMinutes` the API shows). */
  meteredMinutes: number;
  credits: number;
}

/**
 * The price of a render of `durationSec` seconds (estimated at creation, measured at completion),
 * from its row: metered by the movie's full-size frame (a draft's half resolution is the "drafts
 * cost half" rule, not priced twice); test mode is metered but costs nothing. A still is metered
 * as STILL_PRICED_SEC of video, at creation and at completion alike.
 */
export function priceRender(
  render: Pick<RenderRow, 'movie' | 'outputFormat' | 'draft' | 'mode' | 'width' | 'height'>,
  durationSec: number,
): RenderPrice {
  const full = fullFrame(render);
  const still = outputKind(render.outputFormat) === 'still';
  const meter: MeterInput = {
    durationSec: still ? STILL_PRICED_SEC : durationSec,
    width: full.width,
    height: full.height,
    draft: render.draft,
  };
  return {
    meteredMinutes: Math.round(weightedMinutes(meter) * 10_000) / 10_000,
    credits: render.mode === 'test' ? 0 : renderCredits(meter),
  };
}

/**
 * The movie's full-size frame. A row whose movie names no valid frame (written by hand, or by an
 * older version) is priced by the frame it stored, undoing a draft's halving.
 */
function fullFrame(render: Pick<RenderRow, 'movie' | 'draft' | 'width' | 'height'>): { width: number; height: number } {
  try {
    const full = outputFrame({ ...(render.movie as Movie), draft: false } as Movie);
    if (Number.isFinite(full.width * full.height)) return full;
  } catch {
    // An unknown preset: fall through to the stored frame.
  }
  const scale = render.draft ? 2 : 1;
  return { width: render.width * scale, height: render.height * scale };
}
