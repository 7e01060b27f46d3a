/**
 * Entry of the espeak-ng child process. espeak-ng is GPL-3.0: it runs here, in its own process,
 * and talks to us only through messages (calls of lib/process/child-calls.ts: text in; PCM file
 * and word events out), never linked into the renderer. The Emscripten build gives both the audio and the real word timings from
 * one synthesis, so captions match the speech exactly.
 */
import { writeFileSync } from 'node:fs';
import { answerCalls } from '../../../lib/process/child-calls.ts';

export type EspeakRequest = { text: string; voice: string; pcmFile: string };
type EspeakWord = { textPosition: number; length: number; ms: number };
export interface EspeakResult {
  sampleRate: number;
  samples: number;
  words: EspeakWord[];
}

type Worker = {
  set_voice(v: string): number | undefined;
  synthesize(
    text: string,
    cb: (
      samples: Int16Array | undefined,
      events: { type: string; text_position: number; word_length: number; audio_position: number }[],
    ) => number,
  ): void;
};

const { default: init } = (await import('@echogarden/espeak-ng-emscripten')) as unknown as {
  default: () => Promise<{ eSpeakNGWorker: new () => Worker & { samplerate: number } }>;
};
const module = await init();
const worker = new module.eSpeakNGWorker();

// One synthesis a call. What it throws goes back with its errno as the error's code: a full disk
// (ENOSPC writing the PCM file) is the platform's fault, and the parent needs to tell.
void answerCalls<EspeakRequest, EspeakResult>((req) => {
  worker.set_voice(req.voice);
  const chunks: Int16Array[] = [];
  const words: EspeakWord[] = [];
  worker.synthesize(req.text, (samples, events) => {
    if (samples && samples.length > 0) chunks.push(samples);
    for (const e of events) {
      if (e.type === 'word') words.push({ textPosition: e.text_position, length: e.word_length, ms: e.audio_position });
    }
    return 0;
  });
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const pcm = new Int16Array(total);
  let at = 0;
  for (const c of chunks) {
    pcm.set(c, at);
    at += c.length;
  }
  writeFileSync(req.pcmFile, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  return { sampleRate: worker.samplerate, samples: total, words };
});
process.on('disconnect', () => process.exit(0));
