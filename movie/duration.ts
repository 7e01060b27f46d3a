/** Duration estimates before speech is synthesised: credit gating and progress use them. */
import type { Movie } from './validate.ts';

/**
 * Speaking rate assumed for estimates. espeak-ng speaks 175 words per minute by default and the
 * OpenAI voices about 150-160; estimating at 150 errs towards the longer, so credit reservations
 * cover the real render.
 */
export const WORDS_PER_MINUTE = 150;

/** Silence after the voiceover of a `duration: "voice"` scene, so the last word is not cut. */
export const VOICE_TAIL_SEC = 0.5;

export function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m === null ? 0 : m.length;
}

/** Estimated seconds of a scene; "voice" scenes from the words of their voice elements. */
export function estimateSceneSec(scene: Movie['scenes'][number]): number {
  if (typeof scene.duration === 'number') return scene.duration;
  let end = 0;
  for (const el of scene.elements) {
    if (el.type !== 'voice') continue;
    end = Math.max(end, (el.start ?? 0) + (countWords(el.text) * 60) / WORDS_PER_MINUTE);
  }
  return end + VOICE_TAIL_SEC;
}

/** Estimated seconds of the whole movie: numeric durations summed, voice scenes estimated. */
export function estimateDurationSec(movie: Movie): number {
  let total = 0;
  for (const scene of movie.scenes) total += estimateSceneSec(scene);
  return total;
}
