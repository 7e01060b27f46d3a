import OpenAI from 'openai';

/** OpenAI's `pcm` response format: s16le mono at 24 kHz. */
export const OPENAI_PCM_RATE = 24_000;

/**
 * Synthesises with OpenAI TTS (only for openai-* voices, only when OPENAI_API_KEY is set).
 * `baseURL` (OPENAI_BASE_URL) lets tests point it at a local server speaking the same protocol.
 */
export async function openaiSpeech(
  opts: { apiKey: string; baseURL?: string; voice: string; text: string; model?: string },
  signal?: AbortSignal,
): Promise<Int16Array> {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 1, timeout: 60_000 });
  const res = await client.audio.speech.create(
    { model: opts.model ?? 'tts-1', voice: opts.voice as 'alloy', input: opts.text, response_format: 'pcm' },
    { signal },
  );
  const buf = Buffer.from(await res.arrayBuffer());
  const even = buf.subarray(0, buf.length - (buf.length % 2));
  return new Int16Array(even.buffer.slice(even.byteOffset, even.byteOffset + even.length));
}
