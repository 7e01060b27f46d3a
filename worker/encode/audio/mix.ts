/**
 * The one PCM mix of a movie: voiceover, sounds, clips' sound and the soundtrack, placed on the
 * movie timeline, summed into ONE buffer and encoded once, so there are no gaps or pops at scene
 * joins whatever plays across them. Pure: sources come in decoded, the mix goes out as samples.
 */

/** One decoded source placed on the movie timeline. */
export interface Clip {
  /** s16 samples, interleaved when stereo: the part of the source that plays (already trimmed). */
  pcm: Int16Array;
  /** 1 (default: the same in every output channel) or 2 (left, right). */
  channels?: 1 | 2;
  sampleRate: number;
  /** Movie time of the clip's first sample. */
  startSec: number;
  /** Seconds it plays; default the length of `pcm`. Longer: repeats when `loop`, silence otherwise. */
  durationSec?: number;
  loop?: boolean;
  /** Linear gain (default 1). */
  volume?: number;
  /** Linear fades from and to silence at the clip's start and end (seconds, default 0). */
  fadeInSec?: number;
  fadeOutSec?: number;
  /** Keyframed gain (`animate.volume`) at seconds from the clip's start, times `volume`; sampled every 10 ms. */
  gainAt?: (sec: number) => number;
  /** Lowers the clip to `gain` while any of `under` plays, with ramps (the soundtrack under voice). */
  duck?: { gain: number; under: readonly Span[] };
}

export interface Span {
  startSec: number;
  endSec: number;
}

export const MIX_RATE = 48_000;
/** A few milliseconds of fade at both ends of every clip and at each loop seam: no clicks. */
const EDGE_FADE_SEC = 0.004;
/** Ducking starts lowering the music this long before a voice speaks, and restores it over this long after. */
export const DUCK_ATTACK_SEC = 0.2;
export const DUCK_RELEASE_SEC = 0.5;

/**
 * Weight of ducking at time `t`, 0..1: 1 while a span plays, ramping linearly from 0 over
 * DUCK_ATTACK_SEC before it and back to 0 over DUCK_RELEASE_SEC after it. Pure.
 */
export function duckWeight(spans: readonly Span[], t: number): number {
  let w = 0;
  for (const s of spans) {
    if (t >= s.startSec && t <= s.endSec) return 1;
    if (t < s.startSec && t > s.startSec - DUCK_ATTACK_SEC) w = Math.max(w, 1 - (s.startSec - t) / DUCK_ATTACK_SEC);
    else if (t > s.endSec && t < s.endSec + DUCK_RELEASE_SEC) w = Math.max(w, 1 - (t - s.endSec) / DUCK_RELEASE_SEC);
  }
  return w;
}

/** Gain envelope of a ducked clip over output samples [from, to), precomputed per 10 ms (cheap, smooth enough). */
function duckEnvelope(duck: NonNullable<Clip['duck']>, from: number, to: number, rate: number): (at: number) => number {
  if (duck.gain >= 1 || duck.under.length === 0) return () => 1;
  const step = Math.max(1, Math.round(rate / 100));
  const n = Math.ceil((to - from) / step) + 2;
  const env = new Float32Array(n);
  const spans = [...duck.under].sort((a, b) => a.startSec - b.startSec);
  for (let i = 0; i < n; i++) env[i] = 1 - (1 - duck.gain) * duckWeight(spans, (from + i * step) / rate);
  return (at) => {
    const x = (at - from) / step;
    const i = Math.floor(x);
    const a = env[i] ?? 1;
    const b = env[i + 1] ?? a;
    return a + (b - a) * (x - i);
  };
}

/**
 * A keyframed gain over the clip's samples [from, to), evaluated every 10 ms and interpolated
 * linearly between (a step in the keys becomes a 10 ms ramp: no click).
 */
function keyedEnvelope(gainAt: (sec: number) => number, from: number, to: number, rate: number): (i: number) => number {
  const step = Math.max(1, Math.round(rate / 100));
  const n = Math.ceil((to - from) / step) + 2;
  const env = new Float32Array(n);
  for (let j = 0; j < n; j++) env[j] = gainAt((from + j * step) / rate);
  return (i) => {
    const x = (i - from) / step;
    const j = Math.floor(x);
    const a = env[j] ?? 1;
    const b = env[j + 1] ?? a;
    return a + (b - a) * (x - j);
  };
}

/**
 * Mixes every clip into ONE PCM timeline of exactly `totalSec` (s16 at `rate`, `channels`
 * interleaved), pure. Clips are resampled linearly, looped or cut to their duration, faded (a few
 * milliseconds at least, at both ends and at loop seams), ducked, scaled by their volume, summed
 * and clipped to 16 bits. A mono clip plays in every channel; a stereo one into a mono mix is
 * averaged.
 */
export function mixClips(clips: Clip[], totalSec: number, rate = MIX_RATE, channels: 1 | 2 = 1): Int16Array {
  const total = Math.max(0, Math.round(totalSec * rate));
  const acc = new Float32Array(total * channels);
  const edge = Math.max(1, Math.round(EDGE_FADE_SEC * rate));
  for (const clip of clips) {
    const ratio = clip.sampleRate / rate;
    const ch = clip.channels ?? 1;
    // Sample frames of one pass through the source, at the mix rate.
    const passLen = Math.floor(clip.pcm.length / ch / ratio);
    if (passLen <= 0) continue;
    const outLen = clip.durationSec === undefined ? passLen : Math.max(0, Math.round(clip.durationSec * rate));
    const playLen = clip.loop ? outLen : Math.min(outLen, passLen);
    const offset = Math.round(clip.startSec * rate);
    const volume = clip.volume ?? 1;
    const fadeIn = Math.max(edge, Math.round((clip.fadeInSec ?? 0) * rate));
    const fadeOut = Math.max(edge, Math.round((clip.fadeOutSec ?? 0) * rate));
    const first = Math.max(0, -offset);
    const last = Math.min(playLen, total - offset);
    if (last <= first) continue;
    const gainAt = clip.duck ? duckEnvelope(clip.duck, offset + first, offset + last, rate) : () => 1;
    const keyed = clip.gainAt ? keyedEnvelope(clip.gainAt, first, last, rate) : undefined;
    for (let i = first; i < last; i++) {
      const k = i % passLen;
      const src = k * ratio;
      const j = Math.floor(src);
      const frac = src - j;
      let g = volume;
      if (i < fadeIn) g *= i / fadeIn;
      if (playLen - i < fadeOut) g *= (playLen - i) / fadeOut;
      // Loop seams: the end and the start of the source rarely meet at zero.
      if (clip.loop && playLen > passLen) {
        if (k < edge && i >= passLen) g *= k / edge;
        else if (passLen - k < edge && i + (passLen - k) < playLen) g *= (passLen - k) / edge;
      }
      const at = offset + i;
      g *= gainAt(at);
      if (keyed) g *= keyed(i);
      // The source's left and right at this instant (linear between its sample frames j and j + 1).
      const p0 = j * ch;
      const p1 = p0 + ch;
      const a0 = clip.pcm[p0] ?? 0;
      const l = a0 + ((clip.pcm[p1] ?? a0) - a0) * frac;
      let r = l;
      if (ch === 2) {
        const b0 = clip.pcm[p0 + 1] ?? 0;
        r = b0 + ((clip.pcm[p1 + 1] ?? b0) - b0) * frac;
      }
      if (channels === 2) {
        acc[at * 2] = (acc[at * 2] ?? 0) + l * g;
        acc[at * 2 + 1] = (acc[at * 2 + 1] ?? 0) + r * g;
      } else {
        acc[at] = (acc[at] ?? 0) + ((l + r) / 2) * g;
      }
    }
  }
  const out = new Int16Array(acc.length);
  for (let i = 0; i < acc.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(acc[i]!)));
  return out;
}
