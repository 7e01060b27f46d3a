import OpenAI, { toFile } from 'openai';
import { AppError } from '../../lib/errors.ts';
import type { TimedWord } from './speech/word-timing.ts';

export interface TranscribeConfig {
  apiKey?: string | undefined;
  /** An OpenAI-protocol endpoint ending in /v1 (TRANSCRIBE_BASE_URL, else OPENAI_BASE_URL); OpenAI when absent. */
  baseUrl?: string | undefined;
  model?: string | undefined;
}

/** 16-bit mono PCM as a WAV file: what the transcription endpoint is sent. */
function wav(pcm: Int16Array, rate: number): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/**
 * Transcribes mono PCM through an OpenAI-protocol endpoint (`audio.transcriptions.create`,
 * verbose_json with word timestamps) into words timed in seconds from the PCM's start. A self-hosted
 * Whisper server speaking the protocol works as OpenAI does. Failures are TRANSCRIPTION_FAILED at `path`.
 */
export async function transcribeWords(
  pcm: Int16Array,
  rate: number,
  language: string | undefined,
  config: TranscribeConfig,
  path: string,
  signal?: AbortSignal,
): Promise<TimedWord[]> {
  if (!config.apiKey && !config.baseUrl) {
    throw new AppError(
      'TRANSCRIPTION_FAILED',
      'No transcription endpoint is configured for subtitles from: set OPENAI_API_KEY, or TRANSCRIBE_BASE_URL (or OPENAI_BASE_URL) to an OpenAI-protocol server, where the workers run',
      { path },
    );
  }
  // A self-hosted server often wants no key; the client library insists on one.
  const client = new OpenAI({
    apiKey: config.apiKey ?? 'none',
    baseURL: config.baseUrl,
    maxRetries: 1,
    timeout: 300_000,
  });
  let res: { words?: { word: string; start: number; end: number }[] | undefined };
  try {
    res = await client.audio.transcriptions.create(
      {
        file: await toFile(wav(pcm, rate), 'audio.wav', { type: 'audio/wav' }),
        model: config.model ?? 'whisper-1',
        response_format: 'verbose_json',
        timestamp_granularities: ['word'],
        ...(language ? { language } : {}),
      },
      { signal },
    );
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw new AppError('TRANSCRIPTION_FAILED', `Transcription failed: ${(err as Error).message}`, { path, cause: err });
  }
  if (!Array.isArray(res.words)) {
    throw new AppError(
      'TRANSCRIPTION_FAILED',
      'The transcription came back without word timestamps; use a model and server that give them (timestamp_granularities word)',
      { path },
    );
  }
  return res.words
    .map((w) => ({ text: String(w.word).trim(), startSec: Number(w.start), endSec: Number(w.end) }))
    .filter((w) => w.text !== '' && Number.isFinite(w.startSec) && Number.isFinite(w.endSec) && w.endSec >= w.startSec);
}
