import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../lib/errors.ts';
import { platformFault } from '../../../lib/platform-fault.ts';
import { defaultVoiceFor, type VoiceElement, type VoiceInfo, voiceById } from '../../../movie/index.ts';
import { alignWords } from './align.ts';
import { EspeakClient } from './espeak.ts';
import { OPENAI_PCM_RATE, openaiSpeech } from './openai-tts.ts';
import { type TimedWord, timeWords } from './word-timing.ts';

export interface Speech {
  pcm: Int16Array;
  sampleRate: number;
  durationSec: number;
  /** Word times inside the clip, from the synthesiser's own events. */
  words: TimedWord[];
  voice: VoiceInfo;
}

export interface SpeechConfig {
  openaiApiKey?: string | undefined;
  openaiBaseUrl?: string | undefined;
  /** Where subtitles `from` are transcribed (an OpenAI-protocol endpoint) and with which model. */
  transcribeBaseUrl?: string | undefined;
  transcribeModel?: string | undefined;
}

/** The voice an element speaks with: its voiceId, else the espeak voice of its language. */
function voiceFor(el: VoiceElement): VoiceInfo {
  return (el.voiceId ? voiceById(el.voiceId) : undefined) ?? defaultVoiceFor(el.language ?? 'en-US');
}

/**
 * Synthesises voice elements. espeak voices run in the espeak child process (audio and word
 * events from one synthesis). OpenAI voices need OPENAI_API_KEY; OpenAI reports no word
 * times, so an espeak synthesis of the same text, in the element's language, is force-aligned
 * to the clip (`alignWords`: MFCCs and dynamic time warping) and its exact word times carried
 * across.
 */
export class SpeechSynthesizer {
  private espeak = new EspeakClient();
  private n = 0;

  constructor(
    private readonly tmpDir: string,
    private readonly config: SpeechConfig,
  ) {}

  async synthesize(el: VoiceElement, path: string, signal?: AbortSignal): Promise<Speech> {
    const voice = voiceFor(el);
    try {
      if (voice.engine === 'openai') return await this.openai(el, voice, path, signal);
      return { ...(await this.espeakSpeech(el.text, voice.engineVoice)), voice };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (err instanceof AppError) throw err;
      // A full or failing disk is the platform's fault: its own code, no path into the document.
      const fault = platformFault(err, 'synthesising speech');
      if (fault) throw fault;
      throw new AppError('TTS_FAILED', `Speech synthesis with ${voice.id} failed: ${(err as Error).message}`, {
        path,
        cause: err,
      });
    }
  }

  private async espeakSpeech(text: string, engineVoice: string): Promise<Omit<Speech, 'voice'>> {
    const file = join(this.tmpDir, `voice-${this.n++}.pcm`);
    const r = await this.espeak.synthesize(text, engineVoice, file);
    const buf = readFileSync(file);
    const pcm = new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
    const durationSec = r.samples / r.sampleRate;
    if (r.samples === 0) throw new Error('espeak-ng produced no audio');
    return { pcm, sampleRate: r.sampleRate, durationSec, words: timeWords(text, r.words, durationSec) };
  }

  private async openai(el: VoiceElement, voice: VoiceInfo, path: string, signal?: AbortSignal): Promise<Speech> {
    if (!this.config.openaiApiKey) {
      throw new AppError(
        'TTS_FAILED',
        `Voice ${voice.id} needs OPENAI_API_KEY on the worker; use an espeak-* voice to render offline`,
        { path },
      );
    }
    const pcm = await openaiSpeech(
      { apiKey: this.config.openaiApiKey, baseURL: this.config.openaiBaseUrl, voice: voice.engineVoice, text: el.text },
      signal,
    );
    if (pcm.length === 0) throw new Error('OpenAI TTS returned no audio');
    const durationSec = pcm.length / OPENAI_PCM_RATE;
    const guide = await this.espeakSpeech(el.text, defaultVoiceFor(el.language ?? 'en-US').engineVoice);
    const words = alignWords({ samples: guide.pcm, sampleRate: guide.sampleRate }, guide.words, {
      samples: pcm,
      sampleRate: OPENAI_PCM_RATE,
    });
    return { pcm, sampleRate: OPENAI_PCM_RATE, durationSec, words, voice };
  }

  close(): void {
    this.espeak.close();
  }
}
