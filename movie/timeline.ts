/** Scene boundaries in seconds and frames, once the real scene durations are known. Pure. */
import { DEFAULT_TRANSITION_SEC, type TRANSITION_TYPES } from './v1/schema.ts';
import type { Movie } from './validate.ts';

export type TransitionType = (typeof TRANSITION_TYPES)[number];

interface TimelineScene {
  id: string;
  index: number;
  startSec: number;
  endSec: number;
  /** First frame of the scene (inclusive). */
  startFrame: number;
  /** First frame after the scene (exclusive). Without a transition, the next scene's startFrame. */
  endFrame: number;
  /**
   * The transition from the previous scene into this one, with its effective length: this scene
   * starts `durationSec` before the previous one ends, and both are drawn while they overlap.
   */
  transition?: { type: TransitionType; durationSec: number } | undefined;
}

export interface Timeline {
  durationSec: number;
  totalFrames: number;
  scenes: TimelineScene[];
}

// Multiplying float seconds by fps leaves noise (0.1 * 30 = 3.0000000000000004); round it away first.
const frameAt = (sec: number, fps: number) => Math.round(Math.round(sec * fps * 1e6) / 1e6);

/**
 * Seconds each scene overlaps the one before it (0 for the first scene and scenes without a
 * transition). A transition is cut to fit: it never lasts longer than its own scene, nor than
 * what the previous scene has left after its own incoming transition, so at most two scenes are
 * ever on screen together. The validator refuses such documents where durations are numbers; this
 * rule covers "voice" and "video" scenes, whose lengths are known only when rendering.
 */
export function transitionOverlaps(movie: Movie, sceneDurationsSec: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < sceneDurationsSec.length; i++) {
    const t = movie.scenes[i]?.transition;
    if (i === 0 || !t) {
      out.push(0);
      continue;
    }
    const wanted = t.duration ?? DEFAULT_TRANSITION_SEC;
    const prevLeft = sceneDurationsSec[i - 1]! - out[i - 1]!;
    out.push(Math.max(0, Math.min(wanted, prevLeft, sceneDurationsSec[i]!)));
  }
  return out;
}

/**
 * Frame boundaries are the rounded times, so scenes without transitions tile without gaps or
 * overlaps and the total is round(sum * fps); a scene shorter than one frame can get zero
 * frames. A transition makes its scene start that much earlier: the movie is shorter by the sum
 * of the transitions, and the overlapping frames belong to both scenes.
 */
export function buildTimeline(movie: Movie, sceneDurationsSec: number[], fps: number): Timeline {
  if (sceneDurationsSec.length !== movie.scenes.length)
    throw new RangeError(`buildTimeline: ${sceneDurationsSec.length} durations for ${movie.scenes.length} scenes`);
  if (!Number.isInteger(fps) || fps <= 0)
    throw new RangeError(`buildTimeline: fps must be a positive integer; got ${fps}`);
  sceneDurationsSec.forEach((d, i) => {
    if (!Number.isFinite(d) || d < 0) throw new RangeError(`buildTimeline: scene ${i} duration must be >= 0; got ${d}`);
  });
  const overlaps = transitionOverlaps(movie, sceneDurationsSec);
  const scenes: TimelineScene[] = [];
  let t = 0;
  for (let i = 0; i < sceneDurationsSec.length; i++) {
    const overlap = overlaps[i]!;
    const start = t - overlap;
    t = start + sceneDurationsSec[i]!;
    const declared = movie.scenes[i]!.transition;
    scenes.push({
      id: movie.scenes[i]!.id,
      index: i,
      startSec: start,
      endSec: t,
      startFrame: frameAt(start, fps),
      endFrame: frameAt(t, fps),
      ...(declared && overlap > 0 ? { transition: { type: declared.type, durationSec: overlap } } : {}),
    });
  }
  return { durationSec: t, totalFrames: frameAt(t, fps), scenes };
}
