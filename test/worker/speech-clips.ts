import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EspeakClient } from '../../worker/prepare/speech/espeak.ts';
import { OPENAI_PCM_RATE } from '../../worker/prepare/speech/openai-tts.ts';
import { timeWords } from '../../worker/prepare/speech/word-timing.ts';

export interface Clip {
  /** s16le mono at 24 kHz, like OpenAI's `pcm` format. */
  pcm: Int16Array;
  /** The true start of every word in the clip, from espeak-ng's own events. */
  starts: number[];
}

const readPcm = (file: string): Int16Array => {
  const b = readFileSync(file);
  return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
};

/**
 * A stand-in for speech from an engine without word times: each part spoken by espeak-ng with
 * `voice`, preceded by `pauses[i]` seconds of silence, joined and resampled to 24 kHz. The true
 * word starts come from espeak-ng's events, so an aligner can be checked against them.
 */
export async function pausedClip(
  espeak: EspeakClient,
  dir: string,
  voice: string,
  parts: string[],
  pauses: number[],
): Promise<Clip> {
  const starts: number[] = [];
  const pieces: Int16Array[] = [];
  let rate = 0;
  let at = 0;
  for (const [i, text] of parts.entries()) {
    const file = join(dir, `clip-${voice}-${i}.pcm`);
    const r = await espeak.synthesize(text, voice, file);
    rate = r.sampleRate;
    const pcm = readPcm(file);
    const silence = new Int16Array(Math.round((pauses[i] ?? 0) * rate));
    at += silence.length / rate;
    for (const w of timeWords(text, r.words, pcm.length / rate)) starts.push(at + w.startSec);
    at += pcm.length / rate;
    pieces.push(silence, pcm);
  }
  const joined = new Int16Array(pieces.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of pieces) {
    joined.set(p, o);
    o += p.length;
  }
  const out = new Int16Array(Math.floor((joined.length * OPENAI_PCM_RATE) / rate));
  for (let i = 0; i < out.length; i++) {
    const x = (i * rate) / OPENAI_PCM_RATE;
    const k = Math.floor(x);
    const f = x - k;
    out[i] = Math.round((joined[k] ?? 0) * (1 - f) + (joined[k + 1] ?? 0) * f);
  }
  return { pcm: out, starts };
}

/** Speech of `text` from espeak-ng with its word starts (the guide an aligner starts from). */
export async function espeakSpeech(
  espeak: EspeakClient,
  dir: string,
  voice: string,
  text: string,
): Promise<{ pcm: Int16Array; sampleRate: number; words: ReturnType<typeof timeWords> }> {
  const file = join(dir, `guide-${voice}.pcm`);
  const r = await espeak.synthesize(text, voice, file);
  const pcm = readPcm(file);
  return { pcm, sampleRate: r.sampleRate, words: timeWords(text, r.words, pcm.length / r.sampleRate) };
}
