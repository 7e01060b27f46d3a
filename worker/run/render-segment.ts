import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../lib/errors.ts';
import { createFrameRenderer, type FrameRenderer } from '../draw/gpu/frame-renderer.ts';
import { workerFrameHost } from '../draw/gpu/worker-host.ts';
import { VideoReader } from '../draw/video-reader.ts';
import { ChunkedEncoder } from '../encode/chunked-encoder.ts';
import { compositeArgs } from '../encode/composite-args.ts';
import { type CompositeChunk, compositeChunk } from '../plan/composite-plan.ts';
import { dirtyRects } from '../plan/dirty-rects.ts';
import type { LayerState } from '../plan/frame-state.ts';
import { frameState, indexPlan } from '../plan/frame-state.ts';
import type { RenderPlan } from '../plan/plan.ts';
import { chunksOf } from '../plan/segments.ts';

export interface SegmentJob {
  plan: RenderPlan;
  /** Frames [fromFrame, toFrame) of the movie. */
  fromFrame: number;
  toFrame: number;
  output: string;
  ffmpeg: string;
  /** `false` draws every chunk here, never composited by ffmpeg (tests compare the two). */
  composite?: boolean;
  /** `false` draws no layer: the frames' changed rectangles show the background (render-movie.ts `layers`). */
  layers?: boolean;
}

export interface SegmentStats {
  frames: number;
  /** Frames actually drawn; the rest repeated the previous frame's bytes or were composited by ffmpeg. */
  rendered: number;
  /** Frames in chunks composited by ffmpeg (composite.ts). */
  composited: number;
  /** Milliseconds spent drawing and reading back (overlay images included), and waiting on the encoders. */
  drawMs: number;
  writeMs: number;
}

/**
 * Renders a frame range into one MP4 segment, encoded in chunks (chunked-encoder.ts). Draws on the
 * backend its process was started for (draw/backend/). A chunk with a full-frame clip under every frame is made by
 * ffmpeg from the clip and the layers' overlay images (composite.ts); the others are drawn here
 * frame by frame, and a frame whose state key equals the previous one is not drawn again: the
 * same YUV bytes go to the encoder, which is most frames of a typical movie.
 */
export async function renderSegment(
  job: SegmentJob,
  onFrames: (framesDone: number) => void,
  signal?: AbortSignal,
): Promise<SegmentStats> {
  const { plan } = job;
  const index = indexPlan(plan);
  const renderer = createFrameRenderer(plan.width, plan.height, workerFrameHost());
  const sink = new ChunkedEncoder(
    job.ffmpeg,
    {
      width: plan.width,
      height: plan.height,
      fps: plan.fps,
      codec: plan.codec,
      quality: plan.quality,
      threads: plan.encoderThreads,
      format: plan.format,
      alpha: plan.alpha,
    },
    { from: job.fromFrame, to: job.toFrame },
    plan.chunkFrames,
    job.output,
    signal,
  );
  let rendered = 0;
  let drawMs = 0;
  let writeMs = 0;
  let lastKey: string | undefined;
  let lastScene = -1;
  let bytes: Uint8Array | undefined;
  let lastLayers: LayerState[] | undefined;
  let lastBlended = false;
  // One decoder per video layer, started when the layer first shows, closed when it has ended.
  const readers = new Map<number, VideoReader>();
  const withVideo = async (layers: LayerState[]): Promise<string> => {
    let key = '';
    for (const s of layers) {
      if (s.videoSec === undefined) continue;
      let reader = readers.get(s.layer);
      if (!reader) {
        const l = plan.layers[s.layer]!;
        reader = new VideoReader(job.ffmpeg, l.video!, `${l.path}.src`);
        readers.set(s.layer, reader);
      }
      const frame = await reader.frameAt(s.videoSec);
      s.pixels = frame.pixels;
      s.content = frame.sec;
      key += `|v${s.layer}@${frame.sec}`;
    }
    return key;
  };
  let composited = 0;
  // `layers: false` (benchmarks): the same rectangles cleared, converted and read back, empty.
  const drawn: (layers: LayerState[]) => LayerState[] = job.layers === false ? () => [] : (layers) => layers;
  try {
    for (const chunk of chunksOf({ from: job.fromFrame, to: job.toFrame }, plan.chunkFrames)) {
      const composite = job.composite === false || job.layers === false ? undefined : compositeChunk(index, chunk);
      if (composite) {
        if (signal?.aborted) throw signal.reason;
        // ffmpeg decodes the clips of this chunk itself: the decoders here would only wait.
        for (const reader of readers.values()) reader.close();
        readers.clear();
        const t0 = performance.now();
        const dir = `${job.output}.overlays-${chunk.from}`;
        const images = drawOverlayImages(composite, renderer, dir);
        const t1 = performance.now();
        drawMs += t1 - t0;
        // Starts the chunk's ffmpeg once the chunk before the last has finished (back-pressure).
        const sources = { clip: (layer: number) => plan.layers[layer]!.video!, images };
        await sink.command(
          (output, settings) => compositeArgs(composite, sources, settings, output),
          () => rmSync(dir, { recursive: true, force: true }),
        );
        writeMs += performance.now() - t1;
        composited += chunk.to - chunk.from;
        // The next chunk drawn here starts afresh: its scene's textures, every row.
        lastScene = -1;
        lastKey = undefined;
        bytes = undefined;
        onFrames(chunk.to - job.fromFrame);
        continue;
      }
      for (let f = chunk.from; f < chunk.to; f++) {
        if (signal?.aborted) throw signal.reason;
        const state = frameState(index, f);
        const sceneChanged = state.scene.index !== lastScene;
        if (sceneChanged) {
          // Textures of finished scenes are freed so memory follows one scene, not the movie.
          const keep = [...(index.layersByScene[state.scene.index] ?? [])];
          const next = plan.scenes[state.scene.index + 1];
          if (next?.transition) keep.push(...(index.layersByScene[next.index] ?? []));
          renderer.retain(new Set(keep));
          lastScene = state.scene.index;
        }
        const t = f / plan.fps;
        for (const [id, reader] of readers) {
          if (plan.layers[id]!.endSec <= t) {
            reader.close();
            readers.delete(id);
          }
        }
        const key =
          state.key + (await withVideo(state.layers)) + (state.incoming ? await withVideo(state.incoming.layers) : '');
        if (key !== lastKey || !bytes) {
          // Only the rectangles that changed are drawn again (a caption word, a moving shape).
          const blended = state.incoming !== undefined;
          const rects =
            sceneChanged || !bytes || blended || lastBlended
              ? undefined
              : dirtyRects(lastLayers, state.layers, plan.width, plan.height);
          lastBlended = blended;
          const t0 = performance.now();
          const incoming = state.incoming && {
            background: state.incoming.scene.background,
            layers: drawn(state.incoming.layers),
            type: state.incoming.type,
            progress: state.incoming.progress,
          };
          // A movie that keeps alpha (plan.alpha): every frame whole, on transparent black, as yuva420p.
          bytes = plan.alpha
            ? renderer.renderAlpha(drawn(state.layers), incoming)
            : renderer.render(state.scene.background, drawn(state.layers), rects, incoming);
          drawMs += performance.now() - t0;
          lastLayers = state.layers;
          lastKey = key;
          rendered++;
        }
        const t1 = performance.now();
        await sink.write(bytes);
        writeMs += performance.now() - t1;
        if ((f - job.fromFrame) % 15 === 14) onFrames(f - job.fromFrame + 1);
      }
    }
    await sink.end();
    onFrames(job.toFrame - job.fromFrame);
  } catch (err) {
    sink.kill();
    throw err instanceof AppError || (signal?.aborted && err === signal.reason)
      ? err
      : new AppError('RENDER_FAILED', `Rendering frames failed: ${(err as Error).message}`, { cause: err });
  } finally {
    for (const reader of readers.values()) reader.close();
    renderer.dispose();
  }
  return {
    frames: job.toFrame - job.fromFrame,
    rendered,
    composited,
    drawMs: Math.round(drawMs),
    writeMs: Math.round(writeMs),
  };
}

/**
 * Draws a composited chunk's overlay images (each layer over the backdrop, once per state) into
 * `dir`, one raw yuva420p file per track, and returns the files in track order.
 */
function drawOverlayImages(chunk: CompositeChunk, renderer: FrameRenderer, dir: string): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  renderer.retain(new Set(chunk.tracks.map((t) => t.layer)));
  return chunk.tracks.map((track, t) => {
    const { rect } = track;
    const file = join(dir, `t${t}.yuva`);
    const fd = openSync(file, 'w');
    try {
      let hidden: Uint8Array | undefined;
      const write = (bytes: Uint8Array) => {
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      };
      for (const run of track.runs) {
        if (run.state) write(renderer.layerImage(run.state, rect));
        else {
          // Not shown: all transparent (alpha 0).
          hidden ??= new Uint8Array((rect.width * (rect.y1 - rect.y0) * 5) / 2);
          write(hidden);
        }
      }
    } finally {
      closeSync(fd);
    }
    return file;
  });
}
