/**
 * Chunks composited by ffmpeg. When every frame of an encoder chunk shows a full-frame clip at the
 * bottom (a backdrop: opaque, unmoved, the frame's size, BT.709) and no transition, the chunk's
 * encoder decodes the clip itself and lays the other layers over it with its overlay filter. The
 * renderer draws each of those layers only when it changes, as a still image of the rectangle it
 * covers in the chunk, and no frame's pixels pass through this process: the clip's frames go from
 * ffmpeg's decoder to its encoder in one process, as in `ffmpeg -i clip.mp4 out.mp4`. That is what
 * makes a movie over a 1080p clip render near the speed of re-encoding the clip.
 *
 * Everything here is pure: the plan of a chunk (which clip frames, which layer states when) and the
 * ffmpeg command line follow from the render plan and the chunk's frames alone, so a chunk is
 * composited the same way on one pod or eight.
 *
 * Frame-exact as the clip decoder in the renderer (media/video-reader.ts): output frame k of a run
 * shows the latest source frame whose timestamp is at or before the run's source time plus k/fps.
 * ffmpeg decides it in integers: the time base is divided by the movie's rate (`settb`, exact), the
 * run's start subtracted in those ticks, and the `fps` filter rounding up places each source frame
 * in the first output slot at or after it, keeping the latest one per slot.
 */

import { motionExtent, motionKey } from './animate.ts';
import { layerRows } from './dirty-rects.ts';
import { type FrameIndex, frameState, type LayerState } from './frame-state.ts';
import { layerExtent } from './layer-effects.ts';
import type { FrameRange } from './segments.ts';
import { SOURCE_TIME_SLACK } from './video-source.ts';

/** The rectangle a layer covers: columns [x0, x0 + width), rows [y0, y1); x0 even, y0 and y1 multiples of 4. */
export interface Rect {
  x0: number;
  y0: number;
  width: number;
  y1: number;
}

/**
 * A full-frame clip the frame's bytes can be taken from as decoded: the bottom layer of a frame,
 * a video drawn at the frame's size and place, opaque and unscaled, decoded at the frame's size in
 * the encoder's matrix (BT.709, limited range).
 */
export function coversFrame(s: LayerState | undefined, width: number, height: number): s is LayerState {
  return (
    s !== undefined &&
    s.videoSec !== undefined &&
    s.matrix === 'bt709' &&
    s.x === 0 &&
    s.y === 0 &&
    s.scale === 1 &&
    s.opacity === 1 &&
    s.width === width &&
    s.height === height &&
    s.texture.width === width &&
    s.texture.height === height &&
    // The one place effects choose the path: a clip with any effect is drawn by GL, so its chunk
    // takes the full path; layers with effects over a backdrop are drawn by GL as any other.
    s.effects === undefined &&
    motionKey(s) === ''
  );
}

/**
 * The rectangle GL draws and reads back for one layer over a backdrop: its rows widened for
 * filtering and aligned outwards to 4, its columns widened by 2 and aligned to 2, within the frame.
 */
export function overlayRect(layers: LayerState[], width: number, height: number): Rect | undefined {
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const s of layers) {
    const [a, b] = layerRows(s);
    top = Math.min(top, a);
    bottom = Math.max(bottom, b);
    const { x0, x1 } = motionExtent(s, layerExtent(s));
    left = Math.min(left, x0 - 2);
    right = Math.max(right, x1 + 2);
  }
  const y0 = Math.max(0, Math.floor(top / 4) * 4);
  const y1 = Math.min(height, Math.ceil(bottom / 4) * 4);
  const x0 = Math.max(0, Math.floor(left / 2) * 2);
  const x1 = Math.min(width, Math.ceil(right / 2) * 2);
  return y1 > y0 && x1 > x0 ? { x0, y0, width: x1 - x0, y1 } : undefined;
}

/** Frames of the chunk whose backdrop comes from one clip, in order, without a jump in source time. */
interface BackdropRun {
  /** The video layer (index into the plan's layers). */
  layer: number;
  frames: number;
  /** Source seconds (from the source's start) at the run's first frame. */
  sec: number;
  /** The same source instant for every frame (a clip that has ended and holds its last frame). */
  held: boolean;
}

/** One state of an overlay layer and the frames it lasts; `state` undefined: not shown. */
interface OverlayRun {
  frames: number;
  state: LayerState | undefined;
  /** Equal keys draw the same image. */
  key: string;
}

/** A layer over the backdrop: its rectangle in this chunk and its states from its first frame on. */
export interface OverlayTrack {
  layer: number;
  rect: Rect;
  /** Chunk-relative frames [first, end) the layer shows in. */
  first: number;
  end: number;
  runs: OverlayRun[];
}

export interface CompositeChunk {
  range: FrameRange;
  runs: BackdropRun[];
  /** In draw order. */
  tracks: OverlayTrack[];
}

const stateKey = (s: LayerState) => `${s.content ?? ''}@${s.x},${s.y},${s.scale},${s.opacity}${motionKey(s)}`;

/**
 * How `range` (one encoder chunk) is composited by ffmpeg, or undefined when it cannot be: a frame
 * without a backdrop, a transition, or a second video over the backdrop (its frames would have to
 * pass through here anyway).
 */
export function compositeChunk(index: FrameIndex, range: FrameRange): CompositeChunk | undefined {
  const { plan } = index;
  const { width, height, fps } = plan;
  if (width % 2 !== 0 || height % 2 !== 0 || range.to <= range.from) return undefined;
  const runs: BackdropRun[] = [];
  const tracks = new Map<number, { first: number; last: number; states: (LayerState | undefined)[] }>();
  let prev: { layer: number; sec: number } | undefined;
  for (let f = range.from; f < range.to; f++) {
    const state = frameState(index, f);
    if (state.incoming) return undefined;
    const [under, ...over] = state.layers;
    if (!coversFrame(under, width, height)) return undefined;
    const sec = under.videoSec!;
    const run = runs[runs.length - 1];
    const step = prev?.layer === under.layer ? sec - prev.sec : Number.NaN;
    const advancing = Math.abs(step - 1 / fps) < SOURCE_TIME_SLACK;
    const holding = Math.abs(step) < SOURCE_TIME_SLACK / 1000;
    if (run && run.frames === 1 && (advancing || holding)) {
      run.held = holding;
      run.frames++;
    } else if (run && (run.held ? holding : advancing)) run.frames++;
    else runs.push({ layer: under.layer, frames: 1, sec, held: false });
    prev = { layer: under.layer, sec };
    for (const s of over) {
      if (s.videoSec !== undefined) return undefined;
      let t = tracks.get(s.layer);
      if (!t) {
        t = { first: f - range.from, last: f - range.from, states: [] };
        tracks.set(s.layer, t);
      }
      t.last = f - range.from;
      t.states[f - range.from - t.first] = s;
    }
  }
  const out: OverlayTrack[] = [];
  for (const [layer, t] of [...tracks].sort((a, b) => a[0] - b[0])) {
    const shown = t.states.filter((s): s is LayerState => s !== undefined);
    const rect = overlayRect(shown, width, height);
    if (!rect) continue;
    const trackRuns: OverlayRun[] = [];
    for (let i = 0; i <= t.last - t.first; i++) {
      const s = t.states[i];
      const key = s ? stateKey(s) : 'hidden';
      const last = trackRuns[trackRuns.length - 1];
      if (last?.key === key) last.frames++;
      else trackRuns.push({ frames: 1, state: s, key });
    }
    out.push({ layer, rect, first: t.first, end: t.last + 1, runs: trackRuns });
  }
  return { range, runs, tracks: out };
}
