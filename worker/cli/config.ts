import { EnvSchema, envBool, readEnv } from '../../lib/config.ts';
import { parseTrustedPrefixes } from '../../lib/net/trusted-prefixes.ts';
import type { WorkerConfig } from '../run/prepare-render.ts';

/**
 * The worker's settings, read once from the environment by the command layer (`render`, `worker`
 * and its pod, the benchmarks) and passed down to renderMovie and the cluster steps, which read
 * no environment of their own.
 */
export function workerConfigFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const { values } = readEnv(EnvSchema, env);
  return {
    ffmpegPath: values.FFMPEG_PATH ?? 'ffmpeg',
    ffprobePath: values.FFPROBE_PATH ?? 'ffprobe',
    mediaMaxBytes: Number(values.ASSET_MAX_BYTES ?? '104857600'),
    allowPrivateUrls: envBool(values.ALLOW_PRIVATE_URLS),
    // Parsed once; readEnv has already refused a malformed value, naming the variable.
    trustedUrlPrefixes: parseTrustedPrefixes(values.TRUSTED_URL_PREFIXES),
    openaiApiKey: values.OPENAI_API_KEY,
    openaiBaseUrl: values.OPENAI_BASE_URL,
    transcribeBaseUrl: values.TRANSCRIBE_BASE_URL ?? values.OPENAI_BASE_URL,
    transcribeModel: values.TRANSCRIBE_MODEL ?? 'whisper-1',
    env,
  };
}
