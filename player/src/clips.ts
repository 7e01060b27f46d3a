/**
 * A preview's video clips in the page: the browser's side of the frame graph's video seam. The
 * worker decodes a clip with ffmpeg into the layer's YUV planes (worker/draw/video-reader.ts:
 * scaled and cut as clipFilter says); here a <video> element decodes it, its frame's planes are
 * taken with WebCodecs (VideoFrame.copyTo), scaled and cut the same way (yuv-scale.ts), and handed
 * to the frame graph as a layer's `pixels`, as the worker hands its own: the same video material
 * draws them, with the plan's matrix (the clip's own as ffmpeg reads it, not the browser's guess
 * for an untagged clip). Seeks are exact (the frame at the source time, as the worker picks it);
 * while playing, each clip plays along, seeked again only when it drifts, and a frame is shown as
 * soon as its planes are ready (a frame late at most).
 */
import type { LayerState } from '../../worker/plan/frame-state.ts';
import type { RenderPlan } from '../../worker/plan/plan.ts';
import { rgbaToPlanes, scalePlane, toLimitedRange } from './yuv-scale.ts';

/** A clip playing along is seeked again when it is this far from the movie's time. */
const DRIFT_SEC = 0.25;
/** Source times a hair past the frame's own: the worker's SOURCE_TIME_SLACK, and float sums. */
const SEEK_NUDGE_SEC = 0.001;

type VideoPlan = NonNullable<RenderPlan['layers'][number]['video']>;

interface Clip {
  video: HTMLVideoElement;
  plan: VideoPlan;
  ready: Promise<void>;
  /** The layer's planes (yuv420p at the plan's size), of the frame at `sec`. */
  pixels: Uint8Array;
  sec: number;
  /** A conversion under way while playing. */
  converting?: Promise<void> | undefined;
}

export class Clips {
  private readonly byLayer = new Map<number, Clip>();

  /** One <video> per video layer, from its clip's bytes (fetched whole: every seek is local). */
  constructor(plan: RenderPlan, blobs: Map<string, Blob>) {
    plan.layers.forEach((layer, i) => {
      if (!layer.video) return;
      const blob = blobs.get(layer.video.file);
      if (!blob) throw new Error(`The clip ${layer.video.file} was not fetched`);
      const video = document.createElement('video');
      video.muted = true; // the clip's sound is in the preview's mix
      video.playsInline = true;
      video.preload = 'auto';
      const ready = new Promise<void>((resolve, reject) => {
        video.addEventListener('loadeddata', () => resolve(), { once: true });
        video.addEventListener('error', () => reject(new Error(`The browser cannot play ${layer.path}'s clip`)), {
          once: true,
        });
      });
      video.src = URL.createObjectURL(blob);
      const { width, height } = layer.video;
      // Black (limited range) until the first frame is converted.
      const pixels = new Uint8Array((width * height * 3) / 2);
      pixels.fill(16, 0, width * height);
      pixels.fill(128, width * height);
      this.byLayer.set(i, { video, plan: layer.video, ready, pixels, sec: -1 });
    });
  }

  /** Resolves once every clip has its first frame. */
  async ready(): Promise<void> {
    await Promise.all([...this.byLayer.values()].map((c) => c.ready));
  }

  /** Every clip of `layers` at exactly its frame's source time: its planes set on its layer state. */
  async seek(layers: LayerState[]): Promise<void> {
    await Promise.all(
      layers.map(async (s) => {
        const clip = s.videoSec === undefined ? undefined : this.byLayer.get(s.layer);
        if (!clip || s.videoSec === undefined) return;
        if (!clip.video.paused) clip.video.pause();
        const t = s.videoSec + SEEK_NUDGE_SEC;
        if (Math.abs(clip.video.currentTime - t) > 1e-6) await seekTo(clip.video, t);
        await clip.converting;
        await convert(clip);
        show(s, clip);
      }),
    );
  }

  /** While playing: the clips of `layers` play along (seeked when they drift), the others pause. */
  follow(layers: LayerState[]): void {
    const shown = new Set<number>();
    for (const s of layers) {
      const clip = s.videoSec === undefined ? undefined : this.byLayer.get(s.layer);
      if (!clip || s.videoSec === undefined) continue;
      shown.add(s.layer);
      const t = s.videoSec + SEEK_NUDGE_SEC;
      if (clip.video.paused || Math.abs(clip.video.currentTime - t) > DRIFT_SEC) {
        clip.video.currentTime = t;
        if (clip.video.paused) void clip.video.play().catch(() => {});
      }
      if (!clip.converting && clip.video.currentTime !== clip.sec) {
        clip.converting = convert(clip)
          .catch(() => {})
          .finally(() => {
            clip.converting = undefined;
          });
      }
      show(s, clip);
    }
    for (const [layer, clip] of this.byLayer) if (!shown.has(layer) && !clip.video.paused) clip.video.pause();
  }

  pause(): void {
    for (const clip of this.byLayer.values()) clip.video.pause();
  }

  dispose(): void {
    for (const clip of this.byLayer.values()) {
      clip.video.pause();
      URL.revokeObjectURL(clip.video.src);
      clip.video.removeAttribute('src');
      clip.video.load();
    }
    this.byLayer.clear();
  }
}

/** A frame waited for after a seek: none comes when the seek lands on the frame shown already. */
const PRESENTED_WAIT_MS = 1000;

/**
 * Seeks to `t` and resolves once the frame there is the element's current frame: `seeked` says
 * the seek is done, a presented frame (requestVideoFrameCallback) that the new frame is what a
 * VideoFrame of the element holds (on a loaded machine it came later than `seeked`).
 */
async function seekTo(video: HTMLVideoElement, t: number): Promise<void> {
  const seeked = new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
  const presented =
    'requestVideoFrameCallback' in video
      ? new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, PRESENTED_WAIT_MS);
          video.requestVideoFrameCallback(() => {
            clearTimeout(timer);
            resolve();
          });
        })
      : Promise.resolve();
  video.currentTime = t;
  await seeked;
  await presented;
}

/** The layer state gets the clip's planes, keyed by their source time (the video material's `content`). */
function show(s: LayerState, clip: Clip): void {
  s.pixels = clip.pixels;
  s.content = clip.sec;
}

/** The element's current frame as the layer's planes (clip.pixels), scaled and cut as clipFilter does. */
async function convert(clip: Clip): Promise<void> {
  const { video, plan } = clip;
  const sec = video.currentTime;
  const frame = new VideoFrame(video);
  try {
    const planes = await planesOf(frame, plan.matrix);
    const { width: w, height: h } = planes;
    // scale=scaledWidth:scaledHeight (or the box), then crop=width:height at the centre (even offsets).
    const sw = plan.scaledWidth ?? plan.width;
    const sh = plan.scaledHeight ?? plan.height;
    const x0 = ((sw - plan.width) >> 1) & ~1;
    const y0 = ((sh - plan.height) >> 1) & ~1;
    const out = new Uint8Array((plan.width * plan.height * 3) / 2);
    const ySize = plan.width * plan.height;
    const cSize = ySize / 4;
    scalePlane(planes.y, w, h, planes.yStride, sw, sh, x0, y0, plan.width, plan.height, out.subarray(0, ySize));
    for (const [i, p] of [planes.u, planes.v].entries()) {
      const target = out.subarray(ySize + i * cSize, ySize + (i + 1) * cSize);
      scalePlane(
        p,
        w >> 1,
        h >> 1,
        planes.cStride,
        sw >> 1,
        sh >> 1,
        x0 >> 1,
        y0 >> 1,
        plan.width >> 1,
        plan.height >> 1,
        target,
      );
    }
    clip.pixels = out;
    clip.sec = sec;
  } finally {
    frame.close();
  }
}

interface Planes {
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
  width: number;
  height: number;
  yStride: number;
  cStride: number;
}

/** A decoded frame's limited-range 4:2:0 planes: copied as decoded (I420, NV12), or from its RGB. */
async function planesOf(frame: VideoFrame, matrix: 'bt709' | 'bt601'): Promise<Planes> {
  const rect = frame.visibleRect ?? { x: 0, y: 0, width: frame.codedWidth, height: frame.codedHeight };
  const width = rect.width & ~1;
  const height = rect.height & ~1;
  const region = { x: rect.x, y: rect.y, width, height };
  if (frame.format === 'I420' || frame.format === 'I420A' || frame.format === 'NV12') {
    const buf = new Uint8Array(frame.allocationSize({ rect: region }));
    const layout = await frame.copyTo(buf, { rect: region });
    const [yl, ul, vl] = layout;
    const y = buf.subarray(yl!.offset, yl!.offset + yl!.stride * height);
    let u: Uint8Array;
    let v: Uint8Array;
    let cStride = ul!.stride;
    if (frame.format === 'NV12') {
      // Interleaved chroma: split into two planes.
      const cw = width >> 1;
      const ch = height >> 1;
      u = new Uint8Array(cw * ch);
      v = new Uint8Array(cw * ch);
      for (let r = 0; r < ch; r++) {
        const row = ul!.offset + r * ul!.stride;
        for (let c = 0; c < cw; c++) {
          u[r * cw + c] = buf[row + 2 * c]!;
          v[r * cw + c] = buf[row + 2 * c + 1]!;
        }
      }
      cStride = cw;
    } else {
      u = buf.subarray(ul!.offset, ul!.offset + ul!.stride * (height >> 1));
      v = buf.subarray(vl!.offset, vl!.offset + vl!.stride * (height >> 1));
    }
    if (frame.colorSpace.fullRange) {
      toLimitedRange(y, false);
      toLimitedRange(u, true);
      toLimitedRange(v, true);
    }
    return { y, u, v, width, height, yStride: yl!.stride, cStride };
  }
  // A frame the browser holds as RGB (a hardware decoder's): its pixels, back to the plan's YCbCr.
  const rgba = new Uint8Array(width * height * 4);
  await frame.copyTo(rgba, { rect: region, format: 'RGBA', colorSpace: 'srgb' });
  const { y, u, v } = rgbaToPlanes(rgba, width, height, matrix);
  return { y, u, v, width, height, yStride: width, cStride: width >> 1 };
}
