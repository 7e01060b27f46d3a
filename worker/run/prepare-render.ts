/**
 * What every runner shares: the options a render is given and the result it answers (RenderOptions,
 * RenderResult, RenderProgress), the worker's settings (WorkerConfig), and `prepareRender`, the
 * one call that turns a movie into a prepared render (prepare/prepare.ts with the worker's
 * settings, the encoder probe, the sound encoded while textures are made, the segment plan). The
 * video (render-movie.ts), sound (render-audio.ts) and still (still.ts) runners, and the
 * cluster's prepare pod (cluster-steps.ts), each call it; none calls another's.
 */
import { join } from 'node:path';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { TrustedPrefix } from '../../lib/net/trusted-prefixes.ts';
import type { OutputFormatName } from '../../lib/output-formats.ts';
import { outputKind } from '../../lib/output-formats.ts';
import { platformFault } from '../../lib/platform-fault.ts';
import type { Movie } from '../../movie/index.ts';
import { rendersAlpha } from '../../movie/output-kind.ts';
import type { GlRenderer } from '../draw/backend/renderer.ts';
import { encodeMix } from '../encode/audio/loudness.ts';
import { chooseCodec } from '../encode/encoder-probe.ts';
import { audioCodecFor } from '../encode/ffmpeg-args.ts';
import type { JobOutcome } from '../job-protocol.ts';
import type { EncodeQuality, RenderPlan, VideoCodec } from '../plan/plan.ts';
import { type FrameRange, splitFrames } from '../plan/segments.ts';
import { type PrepareOptions, prepare } from '../prepare/prepare.ts';
import type { SegmentStats } from './render-segment.ts';

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
   * The environment the render's child processes (the segment renderers, ffmpeg) start from; its
   * DRAWING_DEVICE says whether they may draw on a software renderer (worker/draw/backend/egl.ts).
   */
  env: NodeJS.ProcessEnv;
}

export interface RenderOptions {
  /** A valid, resolved v1 document (validateMovie / resolveMovie). */
  movie: Movie;
  /**
   * The output format, decided when the render was created: the executors and a Job pod pass the
   * one stored with it. Without it (`framewright render`, a library call: the render is created
   * here) renderMovie decides it from the movie, once.
   */
  format?: OutputFormatName | undefined;
  /** MP4 path; written atomically (a temporary name, renamed when complete). */
  output: string;
  onProgress?: (event: RenderProgress) => void;
  /** Told once which GL draws the render, before the first frame (the runner logs it too). */
  onDrawing?: (renderer: GlRenderer) => void;
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

/** Options once the format is decided: what the runners below renderMovie take. */
export type DecidedRenderOptions = RenderOptions & { format: OutputFormatName };

export interface PrepareRenderOptions {
  movie: Movie;
  format: OutputFormatName;
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
  const { config, signal, logger, format } = opts;
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
    format,
    tmpDir: opts.tmpDir,
    draft: opts.draft,
    watermark: opts.watermark,
    codec: 'libx264',
    quality: opts.quality,
    ...preparationSettings(config),
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
  // Whether its frames keep alpha, in the plan that every segment and the join read (with the
  // format, which prepare put there).
  const plan: RenderPlan = {
    ...prepared.plan,
    codec: await codecChoice,
    ...(outputKind(format) === 'video' ? { alpha: rendersAlpha(format, opts.movie) } : {}),
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
 * The worker's settings as preparation takes them (what it may fetch, ffmpeg and ffprobe, speech
 * and transcription): one place for every runner that prepares a movie.
 */
export function preparationSettings(
  config: WorkerConfig,
): Pick<PrepareOptions, 'fetchPolicy' | 'ffmpegPath' | 'ffprobePath' | 'speech'> {
  return {
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
  };
}

/** A runner's progress reports, passed on only while they do not go back (`done` always is). */
export function progressEmitter(onProgress: RenderOptions['onProgress']): (e: RenderProgress) => void {
  let last = -1;
  return (e) => {
    if (e.progress < last && e.phase !== 'done') return;
    last = e.progress;
    onProgress?.(e);
  };
}

/** A render's failure as the catalogue says it: an AppError as is, a stop as its reason, the rest RENDER_FAILED. */
export function renderError(err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (err instanceof AppError) return err;
  return new AppError('RENDER_FAILED', `Rendering failed: ${(err as Error).message}`, { cause: err });
}

/**
 * A failure as a call's `failed` answer: an AppError's code, message and path; a full or failing
 * disk anywhere under the work (an AppError's cause included) is the platform's fault, reported
 * with its own code and no path into the customer's document; anything else RENDER_FAILED.
 */
export function failedOutcome(caught: unknown, doing: string): Extract<JobOutcome, { type: 'failed' }> {
  const err = platformFault(caught, doing) ?? caught;
  return {
    type: 'failed',
    error:
      err instanceof AppError
        ? { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) }
        : { code: 'RENDER_FAILED', message: err instanceof Error ? err.message : String(err) },
  };
}
