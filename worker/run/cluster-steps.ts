import { createWriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { limitConcurrency } from '../../lib/concurrency.ts';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { OutputFormatName } from '../../lib/output-formats.ts';
import { MANIFEST, readManifest, segmentName, TRANSFERS, type WorkManifest, workKey } from '../../lib/render-work.ts';
import type { ObjectStore } from '../../lib/storage/object-store.ts';
import { makeTempDir, removeTempDir } from '../../lib/temp-dirs.ts';
import type { Movie } from '../../movie/index.ts';
import { drawingBackend } from '../draw/backend/backend.ts';
import type { GlRenderer } from '../draw/backend/renderer.ts';
import { joinSegments } from '../encode/ffmpeg-process.ts';
import type { LayerPlan, RenderPlan } from '../plan/plan.ts';
import { prepareRender, renderError, type WorkerConfig } from './prepare-render.ts';
import { SegmentChild } from './segment-pool.ts';

/**
 * The three steps of a render spread over pods (operator/stages.ts), each a pod of its own that
 * shares nothing with the others but the object store: `prepareStep` does what happens once and
 * stores the plan, the textures, the media and the encoded audio under `work/<renderId>/`;
 * `segmentStep` renders one segment's frames from them with the same code as a one-machine
 * render; `joinStep` concatenates the segments without re-encoding and muxes the audio once.
 */

interface StepContext {
  renderId: string;
  objects: ObjectStore;
  config: WorkerConfig;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
  /** Where the step's scratch directory is made (default: the OS temp dir). */
  tmpRoot?: string | undefined;
}

/**
 * Runs a step in a scratch directory it removes. The render's own failures arrive as AppErrors
 * (reported, final); an object-store or other platform error stays what it is, so the pod exits
 * without a report and Kubernetes runs it again.
 */
async function withScratch<T>(ctx: StepContext, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = makeTempDir('step', ctx.tmpRoot);
  try {
    return await fn(dir);
  } catch (err) {
    if (ctx.signal?.aborted) throw ctx.signal.reason;
    throw err;
  } finally {
    removeTempDir(dir);
  }
}

async function download(objects: ObjectStore, key: string, file: string): Promise<void> {
  const object = await objects.get(key);
  if (!object) throw new AppError('RENDER_FAILED', `The work object ${key} is missing`);
  await pipeline(object.body, createWriteStream(file));
}

/** The manifest the prepare pod stored; a step without one cannot run. */
async function manifestOf(objects: ObjectStore, renderId: string): Promise<WorkManifest<RenderPlan>> {
  const manifest = (await readManifest(objects, renderId)) as WorkManifest<RenderPlan> | null;
  if (!manifest) throw new AppError('RENDER_FAILED', `The render's prepared plan (${MANIFEST}) is missing`);
  return manifest;
}

/** A layer's files: its clip, or its texture and the sharper copies of a zoomed one. */
const layerFiles = (l: LayerPlan): string[] =>
  l.video ? [l.video.file] : [l.texture.file, ...(l.zoomed ?? []).map((z) => z.texture.file)];

/** The plan's files, each with the name it is stored under. */
function planFiles(plan: RenderPlan): Map<string, string> {
  const names = new Map<string, string>();
  for (const l of plan.layers) {
    for (const file of layerFiles(l)) {
      if (!names.has(file)) names.set(file, `files/${names.size}-${basename(file)}`);
    }
  }
  return names;
}

/** The plan with each layer's file mapped (to a stored name, or back to a local path). */
function mapFiles(plan: RenderPlan, map: (file: string) => string): RenderPlan {
  return {
    ...plan,
    layers: plan.layers.map((l) =>
      l.video
        ? { ...l, video: { ...l.video, file: map(l.video.file) } }
        : {
            ...l,
            texture: { ...l.texture, file: map(l.texture.file) },
            ...(l.zoomed
              ? { zoomed: l.zoomed.map((z) => ({ ...z, texture: { ...z.texture, file: map(z.texture.file) } })) }
              : {}),
          },
    ),
  };
}

export interface PrepareStepOptions extends StepContext {
  movie: Movie;
  /** The render's output format (the Render's spec). */
  format: OutputFormatName;
  draft: boolean;
  watermark: boolean;
  /** The most segments to cut the movie into (the operator's budget). */
  maxSegments: number;
  /** 0..1 of the preparing phase. */
  onStep?: (fraction: number) => void;
}

/** The prepare pod: everything that happens once, stored for the segment and join pods. */
export async function prepareStep(
  opts: PrepareStepOptions,
): Promise<{ segments: number; totalFrames: number; durationSec: number }> {
  sharp.cache(false);
  return withScratch(opts, async (dir) => {
    const stopAudio = new AbortController();
    const prepared = await prepareRender(
      {
        movie: opts.movie,
        format: opts.format,
        tmpDir: dir,
        draft: opts.draft || opts.movie.draft === true,
        watermark: opts.watermark,
        segments: opts.maxSegments,
        config: opts.config,
        onStep: opts.onStep,
        signal: opts.signal,
        logger: opts.logger,
      },
      stopAudio.signal,
    ).catch((err: unknown) => {
      stopAudio.abort();
      // As on one machine: whatever stops preparing is the render's failure.
      throw renderError(err, opts.signal);
    });
    const audio = await prepared.audio;
    const names = planFiles(prepared.plan);
    const manifest: WorkManifest<RenderPlan> = {
      version: 1,
      plan: mapFiles(prepared.plan, (file) => names.get(file)!),
      ranges: prepared.ranges,
      durationSec: prepared.durationSec,
      audio: audio ? 'audio.m4a' : undefined,
      files: [...names.values(), ...(audio ? ['audio.m4a'] : [])],
    };
    // First: whatever this pod stores is named by it, so the sweeper can remove the work of a
    // render that stops halfway. No segment reads it before this pod has reported success.
    await opts.objects.putBuffer(
      workKey(opts.renderId, MANIFEST),
      Buffer.from(JSON.stringify(manifest)),
      'application/json',
    );
    const put = limitConcurrency(TRANSFERS);
    const stored = [...names].map(([file, name]) =>
      put(() => opts.objects.putFile(workKey(opts.renderId, name), file, 'application/octet-stream')),
    );
    if (audio) stored.push(put(() => opts.objects.putFile(workKey(opts.renderId, 'audio.m4a'), audio, 'audio/mp4')));
    await Promise.all(stored);
    return {
      segments: prepared.ranges.length,
      totalFrames: prepared.plan.totalFrames,
      durationSec: prepared.durationSec,
    };
  });
}

export interface SegmentStepOptions extends StepContext {
  /** The segment: the pod's completion index. */
  index: number;
  onFrames?: (frames: number, total: number) => void;
  /** Told which GL draws the segment, before its first frame. */
  onDrawing?: (renderer: GlRenderer) => void;
}

/**
 * A segment pod: fetches the plan and the files of the scenes its frames show (not the whole
 * movie's), renders its frame range, stores the segment. The same renderer, encoder settings and
 * chunking as a one-machine render, so the joined movie is the same frames.
 */
export async function segmentStep(opts: SegmentStepOptions): Promise<{ frames: number }> {
  return withScratch(opts, async (dir) => {
    // Which GL draws, first: a pod given a GPU that finds none fails before it downloads anything.
    const drawing = await drawingBackend().acquire(opts.config.env, opts.logger);
    opts.onDrawing?.(drawing.renderer);
    const manifest = await manifestOf(opts.objects, opts.renderId);
    const range = manifest.ranges[opts.index];
    if (!range) {
      throw new AppError(
        'RENDER_FAILED',
        `Segment ${opts.index} is not in the plan (${manifest.ranges.length} segments)`,
      );
    }
    const { plan } = manifest;
    const scenes = new Set(
      plan.scenes.filter((s) => s.startFrame < range.to && s.endFrame > range.from).map((s) => s.index),
    );
    const needed = new Set<string>();
    for (const l of plan.layers) if (scenes.has(l.sceneIndex)) for (const f of layerFiles(l)) needed.add(f);
    const local = (name: string) => join(dir, name.replaceAll('/', '_'));
    const get = limitConcurrency(TRANSFERS);
    await Promise.all(
      [...needed].map((name) => get(() => download(opts.objects, workKey(opts.renderId, name), local(name)))),
    );
    const child = new SegmentChild(drawing.env);
    const output = join(dir, segmentName(opts.index));
    const total = range.to - range.from;
    try {
      await Promise.race([
        drawing.died,
        child.render(
          {
            plan: mapFiles(plan, local),
            fromFrame: range.from,
            toFrame: range.to,
            output,
            ffmpeg: opts.config.ffmpegPath,
          },
          (frames) => opts.onFrames?.(frames, total),
          opts.signal,
        ),
      ]);
    } finally {
      child.kill();
      await drawing.release();
    }
    await opts.objects.putFile(workKey(opts.renderId, segmentName(opts.index)), output, 'video/mp4');
    return { frames: total };
  });
}

export interface JoinStepOptions extends StepContext {
  /** Where the joined MP4 goes (the caller uploads it). */
  output: string;
}

/** The join pod: the segments concatenated without re-encoding, the audio muxed once. */
export async function joinStep(opts: JoinStepOptions): Promise<{ durationSec: number }> {
  return withScratch(opts, async (dir) => {
    const manifest = await manifestOf(opts.objects, opts.renderId);
    const get = limitConcurrency(TRANSFERS);
    const names = [...manifest.ranges.map((_, i) => segmentName(i)), ...(manifest.audio ? [manifest.audio] : [])];
    await Promise.all(names.map((n) => get(() => download(opts.objects, workKey(opts.renderId, n), join(dir, n)))));
    await joinSegments(
      opts.config.ffmpegPath,
      manifest.ranges.map((_, i) => join(dir, segmentName(i))),
      manifest.audio ? join(dir, manifest.audio) : undefined,
      opts.output,
      opts.signal,
      { format: manifest.plan.format },
    );
    return { durationSec: manifest.durationSec };
  });
}
