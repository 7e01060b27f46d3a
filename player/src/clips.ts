/**
 * A preview's video clips in the page: the browser's side of the frame graph's video seam. The
 * worker decodes a clip with ffmpeg into YUV planes (worker/draw/video-reader.ts); here a <video>
 * element decodes it and each shown frame is drawn, scaled and cut as the plan says (clipFilter:
 * the element's box, cover cut at the centre), onto a canvas that is the layer's texture
 * (FrameHost.liveTexture). Seeks are exact (the frame at the source time, as the worker picks
 * it); while playing, each clip plays along and is seeked again only when it drifts.
 */
import * as THREE from 'three';
import type { LayerState } from '../../worker/plan/frame-state.ts';
import type { RenderPlan } from '../../worker/plan/plan.ts';

/** A clip playing along is seeked again when it is this far from the movie's time. */
const DRIFT_SEC = 0.25;
/** Source times a hair past the frame's own: the worker's SOURCE_TIME_SLACK, and float sums. */
const SEEK_NUDGE_SEC = 0.001;

interface Clip {
  video: HTMLVideoElement;
  canvas: HTMLCanvasElement;
  context: CanvasRenderingContext2D;
  texture: THREE.CanvasTexture;
  /** Source rectangle of the frame drawn onto the canvas (the plan's scale and centre cut). */
  plan: NonNullable<RenderPlan['layers'][number]['video']>;
  ready: Promise<void>;
}

export class Clips {
  private readonly byLayer = new Map<number, Clip>();
  private readonly byTexture = new Map<string, Clip>();

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
      video.crossOrigin = 'anonymous';
      const ready = new Promise<void>((resolve, reject) => {
        video.addEventListener('loadeddata', () => resolve(), { once: true });
        video.addEventListener('error', () => reject(new Error(`The browser cannot play ${layer.path}'s clip`)), {
          once: true,
        });
      });
      video.src = URL.createObjectURL(blob);
      const canvas = document.createElement('canvas');
      canvas.width = layer.texture.width;
      canvas.height = layer.texture.height;
      const context = canvas.getContext('2d', { alpha: false })!;
      const texture = new THREE.CanvasTexture(canvas);
      // As a DataTexture from bytes: row 0 is the top row (v = 0), no colour conversion.
      texture.flipY = false;
      texture.premultiplyAlpha = false;
      texture.colorSpace = THREE.NoColorSpace;
      texture.minFilter = THREE.LinearFilter;
      texture.generateMipmaps = false;
      const clip: Clip = { video, canvas, context, texture, plan: layer.video, ready };
      this.byLayer.set(i, clip);
      this.byTexture.set(layer.texture.file, clip);
    });
  }

  /** Resolves once every clip has its first frame. */
  async ready(): Promise<void> {
    await Promise.all([...this.byLayer.values()].map((c) => c.ready));
  }

  /** The texture a clip layer draws (`clip-N.src#frame`), or undefined for any other texture. */
  texture(file: string): THREE.Texture | undefined {
    return this.byTexture.get(file)?.texture;
  }

  /** Every clip of `layers` at exactly its frame's source time, drawn onto its texture. */
  async seek(layers: LayerState[]): Promise<void> {
    await Promise.all(
      layers.map(async (s) => {
        const clip = s.videoSec === undefined ? undefined : this.byLayer.get(s.layer);
        if (!clip || s.videoSec === undefined) return;
        if (!clip.video.paused) clip.video.pause();
        const t = s.videoSec + SEEK_NUDGE_SEC;
        if (Math.abs(clip.video.currentTime - t) > 1e-6) {
          const seeked = new Promise((resolve) => clip.video.addEventListener('seeked', resolve, { once: true }));
          clip.video.currentTime = t;
          await seeked;
        }
        draw(clip);
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
      draw(clip);
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
      clip.texture.dispose();
    }
    this.byLayer.clear();
    this.byTexture.clear();
  }
}

/** The clip's current frame onto its canvas: scaled to the plan's size, cover cut at the centre. */
function draw(clip: Clip): void {
  const { video, context, canvas, plan } = clip;
  const vw = video.videoWidth;
  const vh = video.videoHeight;
  if (!vw || !vh) return;
  const scaledW = plan.scaledWidth ?? plan.width;
  const scaledH = plan.scaledHeight ?? plan.height;
  const kx = vw / scaledW;
  const ky = vh / scaledH;
  const sx = ((scaledW - plan.width) / 2) * kx;
  const sy = ((scaledH - plan.height) / 2) * ky;
  context.imageSmoothingQuality = 'high';
  context.drawImage(video, sx, sy, plan.width * kx, plan.height * ky, 0, 0, canvas.width, canvas.height);
  clip.texture.needsUpdate = true;
}
