/** One synthesised clip placed on the movie timeline. */
export interface Clip {
  pcm: Int16Array;
  sampleRate: number;
  startSec: number;
}

export const MIX_RATE = 48_000;
const FADE_SEC = 0.004;

/**
 * Mixes every clip into ONE PCM timeline of exactly `totalSec` (s16 mono at MIX_RATE), pure.
 * Clips are resampled linearly, get a few milliseconds of fade at both ends (no clicks), are
 * summed and clipped to 16 bits. One buffer, one AAC encode: no gaps or pops at scene joins.
 */
export function mixClips(clips: Clip[], totalSec: number, rate = MIX_RATE): Int16Array {
  const total = Math.max(0, Math.round(totalSec * rate));
  const acc = new Float32Array(total);
  for (const clip of clips) {
    const ratio = clip.sampleRate / rate;
    const outLen = Math.floor(clip.pcm.length / ratio);
    const offset = Math.round(clip.startSec * rate);
    const fade = Math.max(1, Math.round(FADE_SEC * rate));
    for (let i = 0; i < outLen; i++) {
      const at = offset + i;
      if (at < 0) continue;
      if (at >= total) break;
      const src = i * ratio;
      const j = Math.floor(src);
      const frac = src - j;
      const a = clip.pcm[j] ?? 0;
      const b = clip.pcm[j + 1] ?? a;
      let v = a + (b - a) * frac;
      if (i < fade) v *= i / fade;
      else if (outLen - i < fade) v *= (outLen - i) / fade;
      acc[at] = (acc[at] ?? 0) + v;
    }
  }
  const out = new Int16Array(total);
  for (let i = 0; i < total; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(acc[i]!)));
  return out;
}
