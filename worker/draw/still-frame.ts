import { writeFileSync } from 'node:fs';
import { AppError } from '../../lib/errors.ts';
import { type FrameState, frameState, indexPlan } from '../plan/frame-state.ts';
import type { RenderPlan } from '../plan/plan.ts';
import { createFrameRenderer } from './gpu/frame-renderer.ts';
import { workerFrameHost } from './gpu/worker-host.ts';
import { VideoReader } from './video-reader.ts';

export interface StillFrameJob {
  plan: RenderPlan;
  /** The movie's frame to draw. */
  frame: number;
  /** Where its yuv420p bytes go (width x height x 1.5), or its yuva420p bytes (x 2.5) with `alpha`. */
  output: string;
  ffmpeg: string;
  /** The movie keeps alpha (rendersAlpha: png or webp, every background transparent). */
  alpha?: boolean;
}

/**
 * Each clip of frame `frame`'s layers (and an incoming scene's) decoded at its source time, as the
 * segment renderer gets it: `pixels` and `content` set on its layer state. Each reader goes into
 * `readers` as it starts, for the caller to close (whether this finishes or throws).
 */
export async function decodeClips(
  plan: RenderPlan,
  state: FrameState,
  frame: number,
  ffmpeg: string,
  readers: VideoReader[],
): Promise<void> {
  const t = frame / plan.fps;
  for (const s of [...state.layers, ...(state.incoming?.layers ?? [])]) {
    if (s.videoSec === undefined) continue;
    const l = plan.layers[s.layer]!;
    if (l.endSec <= t) continue;
    const reader = new VideoReader(ffmpeg, l.video!, `${l.path}.src`);
    readers.push(reader);
    const decoded = await reader.frameAt(s.videoSec);
    s.pixels = decoded.pixels;
    s.content = decoded.sec;
  }
}

/**
 * Draws one frame of a prepared render with the renderer the video's frames are drawn with
 * (worker/draw/gpu/frame-renderer.ts, its whole-frame path: no dirty rectangles, no ffmpeg compositing) and
 * writes its yuv420p read-back: the bytes the video encoder would get for that frame. Runs in a
 * child process (still.ts), like a segment: it needs the X display, and a native crash takes only
 * the child down.
 */
export async function renderStillFrame(job: StillFrameJob): Promise<void> {
  const { plan } = job;
  const index = indexPlan(plan);
  const renderer = createFrameRenderer(plan.width, plan.height, workerFrameHost());
  const readers: VideoReader[] = [];
  try {
    const state = frameState(index, job.frame);
    await decodeClips(plan, state, job.frame, job.ffmpeg, readers);
    const incoming = state.incoming && {
      background: state.incoming.scene.background,
      layers: state.incoming.layers,
      type: state.incoming.type,
      progress: state.incoming.progress,
    };
    if (job.alpha) {
      // Whole, on transparent black, straight alpha (as a mov or webm frame of the same movie).
      const area = plan.width * plan.height;
      writeFileSync(job.output, renderer.renderAlpha(state.layers, incoming).subarray(0, (area * 5) / 2));
    } else {
      const bytes = renderer.render(state.scene.background, state.layers, undefined, incoming);
      writeFileSync(job.output, bytes.subarray(0, renderer.layout.frameBytes));
    }
  } catch (err) {
    throw err instanceof AppError
      ? err
      : new AppError('RENDER_FAILED', `Rendering the frame failed: ${(err as Error).message}`, { cause: err });
  } finally {
    for (const r of readers) r.close();
    renderer.dispose();
  }
}
