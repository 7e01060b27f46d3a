import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { AppError } from '../../lib/errors.ts';
import { preparingProgress } from '../../lib/render-progress.ts';
import { makeTempDir, removeTempDir } from '../../lib/temp-dirs.ts';
import { type DecidedRenderOptions, prepareRender, progressEmitter, type RenderResult } from './prepare-render.ts';

/**
 * An audio render (output.format mp3 or wav): the movie is prepared as for a video (assets,
 * speech, durations, the mix and its loudness normalisation), and the mix, encoded in the
 * format's codec (ffmpeg-args.ts audioCodecFor), is the output. No X server, no segment process,
 * no frame is drawn. The preparation is `prepareRender`'s (prepare-render.ts), as for a video.
 * A movie whose elements turn out silent (a video without sound) fails VALIDATION_ERROR at
 * `output.format`, as the validator refuses a movie with nothing that sounds.
 */
export async function renderAudio(opts: DecidedRenderOptions): Promise<RenderResult> {
  const { config, signal, logger } = opts;
  const emit = progressEmitter(opts.onProgress);
  emit({ phase: 'preparing', progress: 0 });
  const tmpDir = makeTempDir('audio', opts.tmpRoot);
  const stopAudio = new AbortController();
  let encoded: Promise<string | undefined> = Promise.resolve(undefined);
  try {
    const prepared = await prepareRender(
      {
        movie: opts.movie,
        format: opts.format,
        tmpDir,
        draft: opts.draft === true || opts.movie.draft === true,
        watermark: opts.watermark === true,
        segments: 1,
        config,
        codec: opts.codec,
        quality: opts.quality,
        onStep: (f) => emit({ phase: 'preparing', progress: preparingProgress(f) }),
        signal,
        logger,
      },
      stopAudio.signal,
    );
    encoded = prepared.audio;
    const audio = await encoded;
    if (!audio) {
      const { format } = opts;
      throw new AppError(
        'VALIDATION_ERROR',
        `Format "${format}" is the movie's sound alone, and the movie turned out silent (its videos have no sound); add a voice, an audio element or a soundtrack, or give a video format`,
        { path: 'output.format' },
      );
    }
    // Written atomically: a temporary name beside the output, renamed when complete.
    const partial = `${opts.output}.part`;
    copyFileSync(audio, partial);
    renameSync(partial, opts.output);
    const { plan, durationSec } = prepared;
    emit({ phase: 'done', progress: 100, durationSec });
    logger?.info({ output: opts.output, durationSec }, 'audio render finished');
    return {
      output: opts.output,
      width: plan.width,
      height: plan.height,
      fps: plan.fps,
      durationSec,
      totalFrames: 0,
      renderedFrames: 0,
      codec: plan.codec,
      hasAudio: true,
      segments: 0,
      segmentStats: [],
    };
  } finally {
    stopAudio.abort();
    await encoded.catch(() => {});
    rmSync(`${opts.output}.part`, { force: true });
    removeTempDir(tmpDir);
  }
}
