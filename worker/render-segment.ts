import { AppError } from '../lib/errors.ts';
import { segmentEncodeArgs } from './ffmpeg-args.ts';
import { startEncoder } from './ffmpeg-process.ts';
import { frameState, indexPlan } from './frame-state.ts';
import { createFrameRenderer } from './gpu/frame-renderer.ts';
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
    segmentEncodeArgs({ width: plan.width, height: plan.height, fps: plan.fps, codec: plan.codec }, job.output),
    signal,
  );
  let rendered = 0;
  let lastKey: string | undefined;
  let lastScene = -1;
  let bytes: Uint8Array | undefined;
  try {
    for (let f = job.fromFrame; f < job.toFrame; f++) {
      if (signal?.aborted) throw signal.reason;
      const state = frameState(index, f);
      if (state.scene.index !== lastScene) {
        // Textures of finished scenes are freed so memory follows one scene, not the movie.
        renderer.retain(new Set(index.layersByScene[state.scene.index] ?? []));
        lastScene = state.scene.index;
      }
      if (state.key !== lastKey || !bytes) {
        bytes = renderer.render(state.scene.background, state.layers);
        lastKey = state.key;
        rendered++;
      }
      await sink.write(bytes);
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
  return { frames: job.toFrame - job.fromFrame, rendered };
}
