/** Duration estimates before speech is synthesised: credit gating and progress use them. */
import { transitionOverlaps } from './timeline.ts';
import type { Movie } from './validate.ts';

/**
 * Speaking rate assumed for estimates. espeak-ng speaks 175 words per minute by default and the
 * OpenAI voices about 150-160; estimating at 150 errs towards the longer, so credit reservations
 * cover the real render.
 */
export const WORDS_PER_MINUTE = 150;

/** Silence after the voiceover of a `duration: "voice"` scene, so the last word is not cut. */
export const VOICE_TAIL_SEC = 0.5;

function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m === null ? 0 : m.length;
}

/**
 * Seconds assumed for a video clip whose length only its file knows (no `duration` and no
 * `trimDuration`), until it is fetched and probed: the estimate gates credits, the real length
 * is what is charged.
 */
const UNKNOWN_CLIP_SEC = 10;

/**
 * Estimated seconds of a scene; "voice" scenes from the words of their voice elements, "video"
 * scenes from their clips' declared lengths (UNKNOWN_CLIP_SEC where the file decides).
 */
function estimateSceneSec(scene: Movie['scenes'][number]): number {
  if (typeof scene.duration === 'number') return scene.duration;
  let end = 0;
  if (scene.duration === 'video') {
    for (const el of scene.elements) {
      if (el.type !== 'video') continue;
      end = Math.max(end, (el.start ?? 0) + (el.duration ?? el.trimDuration ?? UNKNOWN_CLIP_SEC));
    }
    return end;
  }
  for (const el of scene.elements) {
    if (el.type !== 'voice') continue;
    end = Math.max(end, (el.start ?? 0) + (countWords(el.text) * 60) / WORDS_PER_MINUTE);
  }
  return end + VOICE_TAIL_SEC;
}

/**
 * Estimated seconds of the whole movie: numeric durations summed, voice and video scenes
 * estimated, transitions' overlaps taken off (as buildTimeline does with the real durations).
 */
export function estimateDurationSec(movie: Movie): number {
  const durations = movie.scenes.map(estimateSceneSec);
  let total = 0;
  for (const d of durations) total += d;
  for (const overlap of transitionOverlaps(movie, durations)) total -= overlap;
  return total;
}
