/** Scene boundaries in seconds and frames, once the real scene durations are known. */
import type { Movie } from './validate.ts';

export interface TimelineScene {
  id: string;
  index: number;
  startSec: number;
  endSec: number;
  /** First frame of the scene (inclusive). */
  startFrame: number;
  /** First frame after the scene (exclusive): the next scene's startFrame. */
  endFrame: number;
}

export interface Timeline {
  durationSec: number;
  totalFrames: number;
  scenes: TimelineScene[];
}

// Multiplying float seconds by fps leaves noise (0.1 * 30 = 3.0000000000000004); round it away first.
const frameAt = (sec: number, fps: number) => Math.round(Math.round(sec * fps * 1e6) / 1e6);

/**
 * Frame boundaries are the rounded cumulative times, so scenes tile without gaps or overlaps and
 * the total is round(sum * fps); a scene shorter than one frame can get zero frames.
 */
export function buildTimeline(movie: Movie, sceneDurationsSec: number[], fps: number): Timeline {
  if (sceneDurationsSec.length !== movie.scenes.length)
    throw new RangeError(`buildTimeline: ${sceneDurationsSec.length} durations for ${movie.scenes.length} scenes`);
  if (!Number.isInteger(fps) || fps <= 0)
    throw new RangeError(`buildTimeline: fps must be a positive integer; got ${fps}`);
  const scenes: TimelineScene[] = [];
  let t = 0;
  for (let i = 0; i < sceneDurationsSec.length; i++) {
    const d = sceneDurationsSec[i]!;
    if (!Number.isFinite(d) || d < 0) throw new RangeError(`buildTimeline: scene ${i} duration must be >= 0; got ${d}`);
    const start = t;
    t += d;
    scenes.push({
      id: movie.scenes[i]!.id,
      index: i,
      startSec: start,
      endSec: t,
      startFrame: frameAt(start, fps),
      endFrame: frameAt(t, fps),
    });
  }
  return { durationSec: t, totalFrames: frameAt(t, fps), scenes };
}
