import type { Logger } from '../../lib/logger.ts';
import type { VideoCodec } from '../plan/plan.ts';
import { nvencProbeArgs } from './ffmpeg-args.ts';
import { runFfmpeg } from './ffmpeg-process.ts';

export interface CodecChoice {
  codec: VideoCodec;
  /** Why this codec: shown in logs and by the NVENC test when it skips. */
  reason: string;
}

const cache = new Map<string, Promise<CodecChoice>>();

/**
 * h264_nvenc when a tiny test encode succeeds (an encoder listed by `ffmpeg -encoders` may still
 * lack a driver or a device), else libx264. Probed once per ffmpeg binary and process.
 */
export function chooseCodec(ffmpeg: string, logger?: Logger): Promise<CodecChoice> {
  let choice = cache.get(ffmpeg);
  if (!choice) {
    choice = runFfmpeg(ffmpeg, nvencProbeArgs()).then(
      () => ({ codec: 'h264_nvenc' as const, reason: 'h264_nvenc test encode succeeded' }),
      (err: unknown) => {
        const why = err instanceof Error ? err.message.split('\n').slice(-3).join(' ').slice(0, 300) : String(err);
        return { codec: 'libx264' as const, reason: `h264_nvenc test encode failed: ${why}` };
      },
    );
    choice.then((c) => logger?.info({ codec: c.codec, reason: c.reason }, 'video encoder chosen'));
    cache.set(ffmpeg, choice);
  }
  return choice;
}
