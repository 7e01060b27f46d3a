import { AppError } from '../lib/errors.ts';
import { dirtyBand } from './dirty-band.ts';
import { segmentEncodeArgs } from './ffmpeg-args.ts';
import { startEncoder } from './ffmpeg-process.ts';
import { frameState, indexPlan } from './frame-state.ts';
import { createFrameRenderer, type LayerState } from './gpu/frame-renderer.ts';
import type { RenderPlan } from './plan.ts';

export interface SegmentJob {
  plan: RenderPlan;
  /** Frames [fromFrame, toFrame) of the movie. */
  fromFrame: number;
  toFrame: number;
  output: string;
  ffmpeg: string;
}

export interface SegmentStats {
  frames: number;
  /** Frames actually drawn; the rest repeated the previous frame's bytes. */
  rendered: number;
  /** Milliseconds spent drawing and reading back, and waiting on the encoder pipe. */
  drawMs: number;
  writeMs: number;
}

/**
 * Renders a frame range into one MP4 segment. Needs an X display (DISPLAY) for headless-gl.
 * A frame whose state key equals the previous one is not drawn again: the same YUV bytes go to
 * the encoder, which is most frames of a typical movie.
 */
export async function renderSegment(
  job: SegmentJob,
  onFrames: (framesDone: number) => void,
  signal?: AbortSignal,
): Promise<SegmentStats> {
  const { plan } = job;
  const index = indexPlan(plan);
  const renderer = createFrameRenderer(plan.width, plan.height);
  const sink = startEncoder(
    job.ffmpeg,
    segmentEncodeArgs(
      { width: plan.width, height: plan.height, fps: plan.fps, codec: plan.codec, quality: plan.quality },
      job.output,
    ),
    signal,
  );
  let rendered = 0;
  let drawMs = 0;
  let writeMs = 0;
  let lastKey: string | undefined;
  let lastScene = -1;
  let bytes: Uint8Array | undefined;
  let lastLayers: LayerState[] | undefined;
  try {
    for (let f = job.fromFrame; f < job.toFrame; f++) {
      if (signal?.aborted) throw signal.reason;
      const state = frameState(index, f);
      const sceneChanged = state.scene.index !== lastScene;
      if (sceneChanged) {
        // Textures of finished scenes are freed so memory follows one scene, not the movie.
        renderer.retain(new Set(index.layersByScene[state.scene.index] ?? []));
        lastScene = state.scene.index;
      }
      if (state.key !== lastKey || !bytes) {
        // Only the rows that changed are drawn again (a caption word, a sliding title).
        const band = sceneChanged || !bytes ? undefined : dirtyBand(lastLayers, state.layers, plan.height);
        const t0 = performance.now();
        bytes = renderer.render(state.scene.background, state.layers, band);
        drawMs += performance.now() - t0;
        lastLayers = state.layers;
        lastKey = state.key;
        rendered++;
      }
      const t1 = performance.now();
      await sink.write(bytes);
      writeMs += performance.now() - t1;
      if ((f - job.fromFrame) % 15 === 14) onFrames(f - job.fromFrame + 1);
    }
    await sink.end();
    onFrames(job.toFrame - job.fromFrame);
  } catch (err) {
    sink.child.kill('SIGKILL');
    throw err instanceof AppError || (signal?.aborted && err === signal.reason)
      ? err
      : new AppError('RENDER_FAILED', `Rendering frames failed: ${(err as Error).message}`, { cause: err });
  } finally {
    renderer.dispose();
  }
  return { frames: job.toFrame - job.fromFrame, rendered, drawMs: Math.round(drawMs), writeMs: Math.round(writeMs) };
}
