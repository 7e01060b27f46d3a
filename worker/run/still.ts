import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { bundledEntry } from '../../lib/bundled-entry.ts';
import { AppError, isErrorCode } from '../../lib/errors.ts';
import { ownModule } from '../../lib/module-path.ts';
import { ChildCallError, ChildExitedError, describeExit, SupervisedChild } from '../../lib/process/supervised-child.ts';
import { preparingProgress } from '../../lib/render-progress.ts';
import { makeTempDir, removeTempDir } from '../../lib/temp-dirs.ts';
import { rendersAlpha } from '../../movie/output-kind.ts';
import { drawingBackend } from '../draw/backend/backend.ts';
import type { DrawingSurface } from '../draw/backend/surface.ts';
import type { StillFrameJob } from '../draw/still-frame.ts';
import { encodeImage, encodeThumbnail, frameIndexAt, rgbFromYuvFile } from '../encode/still-image.ts';
import { prepare } from '../prepare/prepare.ts';
import {
  type DecidedRenderOptions,
  preparationSettings,
  progressEmitter,
  type RenderResult,
} from './prepare-render.ts';

const CHILD = ownModule('./still-child.ts', import.meta.url);

/** The frame time of a still (`output.time`, default 0: the first frame). */
function stillTime(movie: unknown): number {
  const time = (movie as { output?: { time?: unknown } }).output?.time;
  return typeof time === 'number' ? time : 0;
}

/**
 * A still render (output.format png, jpeg or webp): one frame, at `output.time`, drawn by the
 * renderer the video's frames are drawn with and encoded by sharp. The movie is prepared as for a
 * video (assets, speech and word timings: they fix when things show), but no sound is decoded or
 * mixed, nothing is encoded as video, and it is never split into segments. The frame is the
 * yuv420p read-back a video encoder would get, converted to RGB with the video's matrix, so a
 * still equals the video's frame at that time (less the video codec's loss). Progress: preparing,
 * then rendering 20 -> done.
 *
 * With `thumbnail`, a 320 px WebP of the frame is written there too (the render's thumbnailUrl).
 */
export async function renderStill(
  opts: DecidedRenderOptions & { thumbnail?: string | undefined },
): Promise<RenderResult> {
  const { config, signal, logger } = opts;
  const { format } = opts;
  const draft = opts.draft === true || opts.movie.draft === true;
  const emit = progressEmitter(opts.onProgress);
  emit({ phase: 'preparing', progress: 0 });
  sharp.cache(false);
  const tmpDir = makeTempDir('still', opts.tmpRoot);
  let drawing: DrawingSurface | undefined;
  let child: SupervisedChild<StillFrameJob, null> | undefined;
  // The drawing backend first, as a video's render learns it; the frame process then starts while
  // the movie is prepared (as a video's segments do).
  const warm = drawingBackend()
    .acquire(config.env, logger)
    .then((d) => {
      drawing = d;
      opts.onDrawing?.(d.renderer);
      child = new SupervisedChild({
        name: 'still renderer',
        module: bundledEntry(CHILD),
        env: d.env,
        serialization: 'advanced',
        stderrChars: 8000,
      });
      return d;
    });
  warm.catch(() => {});
  try {
    // Which GL draws, first (as a video's render): a worker given a GPU that finds none fails here.
    const shown = await warm;
    const prepared = await prepare({
      movie: opts.movie,
      format,
      tmpDir,
      draft,
      watermark: opts.watermark === true,
      codec: 'libx264',
      quality: opts.quality,
      ...preparationSettings(config),
      audio: false,
      onStep: (f) => emit({ phase: 'preparing', progress: preparingProgress(f) }),
      signal,
      logger,
    });
    const { plan } = prepared;
    if (plan.totalFrames === 0)
      throw new AppError('RENDER_FAILED', 'The movie has no frames: every scene is shorter than one frame');
    const durationSec = prepared.timeline.totalFrames / plan.fps;
    const time = stillTime(opts.movie);
    // Validation checks `time` where the length is known from the document; a movie timed by its
    // voice or video clips has its length only now.
    if (time >= durationSec) {
      throw new AppError(
        'VALIDATION_ERROR',
        `output.time is ${time} s, but the movie is ${Math.round(durationSec * 1000) / 1000} s long: a still's time must be before its end.`,
        { path: 'output.time' },
      );
    }
    const frame = frameIndexAt(time, plan.fps, plan.totalFrames);
    emit({ phase: 'rendering', progress: 20, durationSec, framesDone: 0, totalFrames: 1 });
    const yuv = join(tmpDir, 'frame.yuv');
    // png and webp keep alpha when every background is transparent (movie.md, Output formats).
    const alpha = rendersAlpha(format, opts.movie);
    const job = { plan, frame, output: yuv, ffmpeg: config.ffmpegPath, alpha };
    await Promise.race([shown.died, drawFrame(child!, job, signal)]);
    const rgb = await rgbFromYuvFile(config.ffmpegPath, yuv, plan.width, plan.height, signal, alpha);
    const partial = `${opts.output}.part`;
    writeFileSync(partial, await encodeImage(rgb, format));
    renameSync(partial, opts.output);
    if (opts.thumbnail) writeFileSync(opts.thumbnail, await encodeThumbnail(rgb));
    emit({ phase: 'done', progress: 100, durationSec });
    logger?.info({ output: opts.output, frame, format }, 'still finished');
    return {
      output: opts.output,
      width: plan.width,
      height: plan.height,
      fps: plan.fps,
      durationSec,
      totalFrames: plan.totalFrames,
      renderedFrames: 1,
      codec: plan.codec,
      hasAudio: false,
      segments: 1,
      segmentStats: [],
    };
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err instanceof AppError
      ? err
      : new AppError('RENDER_FAILED', `Rendering failed: ${(err as Error).message}`, { cause: err });
  } finally {
    await warm.catch(() => {});
    child?.kill();
    await drawing?.release();
    rmSync(`${opts.output}.part`, { force: true });
    removeTempDir(tmpDir);
  }
}

/** The frame process's one call, its failures as the catalogue says them (as segment-pool.ts). */
async function drawFrame(
  child: SupervisedChild<StillFrameJob, null>,
  job: StillFrameJob,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await child.call(job, { signal });
  } catch (err) {
    if (err instanceof ChildExitedError) {
      throw new AppError(
        'RENDER_FAILED',
        `The still renderer died (${describeExit(err.exit)}) before finishing: ${err.exit.stderr.trim().slice(-2000)}`,
      );
    }
    if (err instanceof ChildCallError) {
      throw new AppError(err.code !== undefined && isErrorCode(err.code) ? err.code : 'RENDER_FAILED', err.message);
    }
    throw err;
  } finally {
    child.disconnect();
  }
}
