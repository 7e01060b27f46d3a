import { join } from 'node:path';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { TrustedPrefix } from '../../lib/net/trusted-prefixes.ts';
import { preparingProgress, renderingProgress } from '../../lib/render-progress.ts';
import { makeTempDir, removeTempDir } from '../../lib/temp-dirs.ts';
import type { Movie } from '../../movie/index.ts';
import { movieOutputFormat, outputKind, rendersAlpha } from '../../movie/output-kind.ts';
import { type Display, ensureDisplay } from '../draw/backend/xvfb.ts';
import { encodeMix } from '../encode/audio/loudness.ts';
import { chooseCodec } from '../encode/encoder-probe.ts';
import { audioCodecFor, type VideoFormat } from '../encode/ffmpeg-args.ts';
import { joinSegments } from '../encode/ffmpeg-process.ts';
import { posterTime, writePosterImages } from '../encode/poster.ts';
import type { EncodeQuality, RenderPlan, VideoCodec } from '../plan/plan.ts';
import { type FrameRange, splitFrames } from '../plan/segments.ts';
import { prepare } from '../prepare/prepare.ts';
import { renderAudio } from './render-audio.ts';
import type { SegmentStats } from './render-segment.ts';
import { SegmentChild } from './segment-pool.ts';
import { renderStill } from './still.ts';

/** Progress events, in order: preparing (0-20), rendering (20-99, by frames encoded), done (100). */
export type RenderProgress =
  | { phase: 'preparing'; progress: number }
  | { phase: 'rendering'; progress: number; durationSec: number; framesDone: number; totalFrames: number }
  | { phase: 'done'; progress: 100; durationSec: number };

/**
 * Worker settings, read once from the environment by the command layer (worker/cli/config.ts,
 * `workerConfigFromEnv`) and passed down: nothing below it reads process.env.
 */
export interface WorkerConfig {
  ffmpegPath: string;
  /** ffprobe, for video and audio sources (FFPROBE_PATH; default from PATH). */
  ffprobePath?: string | undefined;
  /** Largest video or audio source fetched, in bytes (ASSET_MAX_BYTES: what an upload may be). */
  mediaMaxBytes?: number | undefined;
  allowPrivateUrls: boolean;
  /** URL prefixes fetched even when private addresses are refused: the API's own asset links. */
  trustedUrlPrefixes?: readonly TrustedPrefix[];
  openaiApiKey?: string | undefined;
  openaiBaseUrl?: string | undefined;
  /** OpenAI-protocol transcription (subtitles `from`): TRANSCRIBE_BASE_URL, else OPENAI_BASE_URL; TRANSCRIBE_MODEL. */
  transcribeBaseUrl?: string | undefined;
  transcribeModel?: string | undefined;
  /**
   * The environment the render's child processes (Xvfb, the segment renderers) start from; its
   * DISPLAY, when set, is the X server to draw on instead of an Xvfb of the render's own.
   */
  env: NodeJS.ProcessEnv;
}

export interface RenderOptions {
  /** A valid, resolved v1 document (validateMovie / resolveMovie). */
  movie: Movie;
  /** MP4 path; written atomically (a temporary name, renamed when complete). */
  output: string;
  onProgress?: (event: RenderProgress) => void;
  signal?: AbortSignal;
  /** Adds the visible watermark at full size (trial plan, test keys). Drafts always have it. */
  watermark?: boolean;
  /** Half width and height, watermarked; also when the document says `draft: true`. */
  draft?: boolean;
  /** Segments rendered in parallel child processes (default 1). */
  parallel?: number;
  logger?: Logger;
  config: WorkerConfig;
  /** Forces an encoder instead of the probe's choice (tests, benchmarks). */
  codec?: VideoCodec;
  /** Overrides the movie's `quality` (benchmarks: `lossless` for the SSIM reference). */
  quality?: EncodeQuality;
  /** Where the per-render scratch directory is made (default: the OS temp dir). */
  tmpRoot?: string;
  /** `false`: every chunk drawn by the renderer, none composited by ffmpeg (tests compare the two). */
  composite?: boolean;
  /**
   * `false` (benchmarks: what a render costs apart from drawing its layers): every frame's changed
   * rectangles cleared to the background, converted, read back and encoded as usual, but no layer
   * drawn in them. The output shows backgrounds only.
   */
  layers?: boolean;
  /**
   * Where the poster (JPEG) and thumbnail (WebP) go (worker/encode/poster.ts `posterFiles`): a video's
   * frame at `output.posterTime`; a still writes its thumbnail only.
   */
  posterFiles?: { poster: string; thumbnail: string } | undefined;
}

export interface RenderResult {
  output: string;
  width: number;
  height: number;
  fps: number;
  durationSec: number;
  totalFrames: number;
  /** Frames drawn; the others repeated an unchanged frame. */
  renderedFrames: number;
  codec: VideoCodec;
  hasAudio: boolean;
  segments: number;
  /** Per segment: frames, frames drawn, frames composited by ffmpeg, ms drawing, ms waiting on the encoder. */
  segmentStats: SegmentStats[];
}

export interface PrepareRenderOptions {
  movie: Movie;
  /** Scratch directory: textures, media, the mixed and the encoded audio go there. */
  tmpDir: string;
  draft: boolean;
  watermark: boolean;
  /** The most segments the frames are cut into (on encoder chunk boundaries). */
  segments: number;
  config: WorkerConfig;
  codec?: VideoCodec | undefined;
  quality?: EncodeQuality | undefined;
  /** 0..1 of the preparing phase. */
  onStep?: (fraction: number) => void;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

/** A prepared render: what every segment needs, and the audio the join muxes. */
export interface PreparedRender {
  plan: RenderPlan;
  /** The segments' frame ranges, each starting on an encoder chunk boundary. */
  ranges: FrameRange[];
  durationSec: number;
  /** The encoded audio (AAC in MP4), done while textures were made; undefined for a silent movie. */
  audio: Promise<string | undefined>;
}

/**
 * What happens once per render, on one machine or in a cluster's prepare pod: assets, speech and
 * word timings, durations, the audio mix (encoded while textures are made), the encoder (the
 * probe) and the segment plan. `stopAudio` stops the audio encoder of a render that failed.
 */
export async function prepareRender(opts: PrepareRenderOptions, stopAudio: AbortSignal): Promise<PreparedRender> {
  const { config, signal, logger } = opts;
  const format = movieOutputFormat(opts.movie);
  let audio: Promise<string | undefined> = Promise.resolve(undefined);
  // The encoder probe (a test encode) runs while assets and speech are prepared.
  const codecChoice = opts.codec
    ? Promise.resolve(opts.codec)
    : chooseCodec(config.ffmpegPath, logger).then((c) => c.codec);
  codecChoice.catch(() => {});
  // The voiceover is encoded as soon as it is mixed, while textures are still being made: done
  // before the frame loop starts, its ffmpeg never adds to the render's peak memory.
  const prepared = await prepare({
    movie: opts.movie,
    tmpDir: opts.tmpDir,
    draft: opts.draft,
    watermark: opts.watermark,
    codec: 'libx264',
    quality: opts.quality,
    fetchPolicy: {
      allowPrivate: config.allowPrivateUrls,
      trustedPrefixes: config.trustedUrlPrefixes ?? [],
      mediaMaxBytes: config.mediaMaxBytes,
    },
    ffmpegPath: config.ffmpegPath,
    ffprobePath: config.ffprobePath,
    speech: {
      openaiApiKey: config.openaiApiKey,
      openaiBaseUrl: config.openaiBaseUrl,
      transcribeBaseUrl: config.transcribeBaseUrl,
      transcribeModel: config.transcribeModel,
    },
    onStep: opts.onStep,
    onAudio: (mixed) => {
      // The output format's codec (AAC, Opus, MP3, WAV); a gif has no sound, so none is encoded.
      const audioCodec = audioCodecFor(format);
      if (!audioCodec) return;
      // The name is a name only (the cluster's work objects use it): the container is the codec's.
      const file = join(opts.tmpDir, 'audio.m4a');
      const audioSignal = signal ? AbortSignal.any([signal, stopAudio]) : stopAudio;
      audio = encodeMix(config.ffmpegPath, mixed, file, mixed.loudness, audioSignal, audioCodec).then((done) => {
        if (done) logger?.info({ loudness: done }, `audio loudness: ${done.mode}`);
        return file;
      });
      audio.catch(() => {});
    },
    signal,
    logger,
  });
  // The output format (movie/output-kind.ts) and whether its frames keep alpha, in the plan that
  // every segment and the join read.
  const plan: RenderPlan = {
    ...prepared.plan,
    codec: await codecChoice,
    ...(outputKind(format) === 'video' ? { format: format as VideoFormat, alpha: rendersAlpha(opts.movie) } : {}),
  };
  if (plan.totalFrames === 0)
    throw new AppError('RENDER_FAILED', 'The movie has no frames: every scene is shorter than one frame');
  return {
    plan,
    ranges: splitFrames(plan.totalFrames, opts.segments, plan.chunkFrames),
    durationSec: prepared.timeline.totalFrames / plan.fps,
    audio,
  };
}

/**
 * Renders a movie document to an MP4: the library entry point used by the CLI and by both
 * executors. Temporary files are removed whatever happens; an Xvfb it started is stopped.
 */
export async function renderMovie(opts: RenderOptions): Promise<RenderResult> {
  // A still (png, jpeg, webp): one frame, no encoder (worker/run/still.ts).
  if (outputKind(movieOutputFormat(opts.movie)) === 'still') {
    return renderStill({ ...opts, thumbnail: opts.posterFiles?.thumbnail });
  }
  // Sound alone (mp3, wav): the mix, no frames (worker/run/render-audio.ts).
  if (outputKind(movieOutputFormat(opts.movie)) === 'audio') {
    return renderAudio(opts, prepareRender).catch((err: unknown) => {
      throw renderError(err, opts.signal);
    });
  }
  const { config, signal, logger } = opts;
  const draft = opts.draft === true || opts.movie.draft === true;
  let last = -1;
  const emit = (e: RenderProgress) => {
    if (e.progress < last && e.phase !== 'done') return;
    last = e.progress;
    opts.onProgress?.(e);
  };
  emit({ phase: 'preparing', progress: 0 });
  // Each decoded image and rasterised line is used once and written to a texture file: libvips'
  // operation cache would only hold memory for the rest of the render (render processes are
  // dedicated to rendering, so this process-wide setting harms no one).
  sharp.cache(false);
  const tmpDir = makeTempDir('render', opts.tmpRoot);
  let display: Display | undefined;
  let children: SegmentChild[] = [];
  const parallel = Math.max(1, Math.floor(opts.parallel ?? 1));
  // The X server and the segment processes start while assets and speech are prepared: their
  // start-up (Xvfb, loading three.js and headless-gl) is off the critical path.
  const warm = ensureDisplay(config.env, logger).then((d) => {
    display = d;
    const childEnv = { ...config.env, DISPLAY: d.name };
    children = Array.from({ length: parallel }, () => new SegmentChild(childEnv));
    return d;
  });
  warm.catch(() => {});
  let audioEncoded: Promise<string | undefined> = Promise.resolve(undefined);
  // A failed render stops the audio encoder and waits for it before removing the scratch files.
  const audioStop = new AbortController();
  try {
    const prepared = await prepareRender(
      {
        movie: opts.movie,
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

    const shown = await warm;
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
    await display?.stop();
    removeTempDir(tmpDir);
  }
}

/** A render's failure as the catalogue says it: an AppError as is, a stop as its reason, the rest RENDER_FAILED. */
export function renderError(err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (err instanceof AppError) return err;
  return new AppError('RENDER_FAILED', `Rendering failed: ${(err as Error).message}`, { cause: err });
}
