import { join } from 'node:path';
import sharp from 'sharp';
import { outputKind } from '../../lib/output-formats.ts';
import { preparingProgress, renderingProgress } from '../../lib/render-progress.ts';
import { makeTempDir, removeTempDir } from '../../lib/temp-dirs.ts';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import { drawingBackend } from '../draw/backend/backend.ts';
import type { DrawingSurface } from '../draw/backend/surface.ts';
import { joinSegments } from '../encode/ffmpeg-process.ts';
import { posterTime, writePosterImages } from '../encode/poster.ts';
import {
  type DecidedRenderOptions,
  prepareRender,
  progressEmitter,
  type RenderOptions,
  type RenderResult,
  renderError,
} from './prepare-render.ts';
import { renderAudio } from './render-audio.ts';
import type { SegmentStats } from './render-segment.ts';
import { SegmentChild } from './segment-pool.ts';
import { renderStill } from './still.ts';

/**
 * Renders a movie document to an MP4: the library entry point used by the CLI and by both
 * executors. Temporary files are removed whatever happens; an Xvfb it started is stopped.
 */
export async function renderMovie(given: RenderOptions): Promise<RenderResult> {
  const opts: DecidedRenderOptions = { ...given, format: given.format ?? movieOutputFormat(given.movie) };
  const { format } = opts;
  // A still (png, jpeg, webp): one frame, no encoder (worker/run/still.ts).
  if (outputKind(format) === 'still') {
    return renderStill({ ...opts, thumbnail: opts.posterFiles?.thumbnail });
  }
  // Sound alone (mp3, wav): the mix, no frames (worker/run/render-audio.ts).
  if (outputKind(format) === 'audio') {
    return renderAudio(opts).catch((err: unknown) => {
      throw renderError(err, opts.signal);
    });
  }
  const { config, signal, logger } = opts;
  const draft = opts.draft === true || opts.movie.draft === true;
  const emit = progressEmitter(opts.onProgress);
  emit({ phase: 'preparing', progress: 0 });
  // Each decoded image and rasterised line is used once and written to a texture file: libvips'
  // operation cache would only hold memory for the rest of the render (render processes are
  // dedicated to rendering, so this process-wide setting harms no one).
  sharp.cache(false);
  const tmpDir = makeTempDir('render', opts.tmpRoot);
  let drawing: DrawingSurface | undefined;
  let children: SegmentChild[] = [];
  const parallel = Math.max(1, Math.floor(opts.parallel ?? 1));
  // The drawing backend first: learning which GL draws takes a 1x1 context (about 40 ms, once a
  // process), and a worker given a GPU that finds none fails here, before anything is prepared.
  // The segment processes then start while assets and speech are prepared: their start-up
  // (loading three.js and headless-gl) is off the critical path.
  const warm = drawingBackend()
    .acquire(config.env, logger)
    .then((d) => {
      drawing = d;
      opts.onDrawing?.(d.renderer);
      children = Array.from({ length: parallel }, () => new SegmentChild(d.env));
      return d;
    });
  warm.catch(() => {});
  let audioEncoded: Promise<string | undefined> = Promise.resolve(undefined);
  // A failed render stops the audio encoder and waits for it before removing the scratch files.
  const audioStop = new AbortController();
  try {
    const shown = await warm;
    const prepared = await prepareRender(
      {
        movie: opts.movie,
        format,
        tmpDir,
        draft,
        watermark: opts.watermark === true,
        segments: parallel,
        config,
        codec: opts.codec,
        quality: opts.quality,
        onStep: (f) => emit({ phase: 'preparing', progress: preparingProgress(f) }),
        signal,
        logger,
      },
      audioStop.signal,
    );
    audioEncoded = prepared.audio;
    const { plan, ranges, durationSec } = prepared;
    const { codec } = plan;
    emit({ phase: 'rendering', progress: 20, durationSec, framesDone: 0, totalFrames: plan.totalFrames });

    const done = ranges.map(() => 0);
    const segmentFiles = ranges.map((_, i) => join(tmpDir, `segment-${i}.mp4`));
    const controller = new AbortController();
    const childSignal = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    let rendered = 0;
    const stats: SegmentStats[] = [];
    try {
      await Promise.race([
        shown.died,
        Promise.all(
          ranges.map((r, i) =>
            children[i]!.render(
              {
                plan,
                fromFrame: r.from,
                toFrame: r.to,
                output: segmentFiles[i]!,
                ffmpeg: config.ffmpegPath,
                ...(opts.composite === false ? { composite: false } : {}),
                ...(opts.layers === false ? { layers: false } : {}),
              },
              (frames) => {
                done[i] = frames;
                const framesDone = done.reduce((a, b) => a + b, 0);
                emit({
                  phase: 'rendering',
                  progress: renderingProgress(framesDone, plan.totalFrames),
                  durationSec,
                  framesDone,
                  totalFrames: plan.totalFrames,
                });
              },
              childSignal,
            ).then((s) => {
              rendered += s.rendered;
              stats.push(s);
            }),
          ),
        ),
      ]);
    } catch (err) {
      // One failed segment (or the X server) stops its siblings instead of letting them run on.
      controller.abort(err);
      throw err;
    }
    await joinSegments(config.ffmpegPath, segmentFiles, await audioEncoded, opts.output, signal, {
      format: plan.format,
    });
    if (opts.posterFiles) {
      await writePosterImages(config.ffmpegPath, opts.output, posterTime(opts.movie), plan, opts.posterFiles, signal);
    }
    emit({ phase: 'done', progress: 100, durationSec });
    logger?.info(
      { output: opts.output, frames: plan.totalFrames, rendered, segments: ranges.length, codec },
      'render finished',
    );
    return {
      output: opts.output,
      width: plan.width,
      height: plan.height,
      fps: plan.fps,
      durationSec,
      totalFrames: plan.totalFrames,
      renderedFrames: rendered,
      codec,
      hasAudio: (await audioEncoded) !== undefined,
      segments: ranges.length,
      segmentStats: stats,
    };
  } catch (err) {
    throw renderError(err, signal);
  } finally {
    audioStop.abort();
    await audioEncoded.catch(() => {});
    // Children that got no job (fewer segments than asked, or a failure before rendering).
    await warm.catch(() => {});
    for (const c of children) c.kill();
    await drawing?.release();
    removeTempDir(tmpDir);
  }
}
