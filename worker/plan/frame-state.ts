import { layerMotion, layerTracks, motionExtras, motionKey } from './animate.ts';
import type { LayerEffects } from './layer-effects.ts';
import type {
  AnimatedLayerPlan,
  LayerPlan,
  RenderPlan,
  ScenePlan,
  TextureCrop,
  TextureRef,
  TransitionType,
} from './plan.ts';
import type { YuvMatrix } from './video-source.ts';

interface SceneState {
  scene: ScenePlan;
  layers: LayerState[];
}

export interface FrameState extends SceneState {
  /** The next scene while it replaces this one: `progress` 0..1 through the transition. */
  incoming?: (SceneState & { type: TransitionType; progress: number }) | undefined;
  /**
   * Equal keys mean identical pixels, so the encoder can be fed the previous frame again. A video
   * layer's key part is its source time; the segment renderer adds the decoded frame's own.
   */
  key: string;
}

/** Finds scenes and layers by frame quickly; built once per plan. */
export interface FrameIndex {
  plan: RenderPlan;
  layersByScene: number[][];
}

export function indexPlan(plan: RenderPlan): FrameIndex {
  const layersByScene: number[][] = plan.scenes.map(() => []);
  plan.layers.forEach((layer, i) => {
    layersByScene[layer.sceneIndex]?.push(i);
  });
  return { plan, layersByScene };
}

/** The first scene showing frame `frame` (the outgoing one during a transition). */
function sceneAt(plan: RenderPlan, frame: number): ScenePlan {
  for (const s of plan.scenes) if (frame >= s.startFrame && frame < s.endFrame) return s;
  const last = plan.scenes[plan.scenes.length - 1];
  if (!last) throw new RangeError('A render plan needs at least one scene');
  return last;
}

/**
 * Source time of a video layer at movie time `t`: the clip's start plus the time elapsed since
 * the layer appeared, wrapped per pass when it loops, held on the pass's last instant when not.
 * Pure; exported for tests.
 */
export function videoTimeAt(l: LayerPlan, t: number): number | undefined {
  const v = l.video;
  if (!v) return undefined;
  const elapsed = Math.max(0, t - l.startSec);
  if (v.loop) return v.trimStartSec + (elapsed % v.lengthSec);
  // Just before the pass's end: the frame showing then is its last one.
  return v.trimStartSec + Math.min(elapsed, Math.max(0, v.lengthSec - 1e-4));
}

function sceneState(index: FrameIndex, scene: ScenePlan, t: number): { layers: LayerState[]; key: string } {
  const { plan } = index;
  const layers: LayerState[] = [];
  let key = `${scene.index}`;
  for (const i of index.layersByScene[scene.index] ?? []) {
    const l = plan.layers[i]!;
    if (t < l.startSec || t >= l.endSec) continue;
    // Keyframe tracks (presets expanded): where the layer is, and how turned, scaled, cropped.
    const m = layerMotion(l, layerTracks(l, plan.width, plan.height), t);
    const a = { dx: m.x - l.x, dy: m.y - l.y, scale: m.scale, opacity: m.opacity };
    // The element's own opacity (layer-effects.ts) times its animation's fade.
    const opacity = a.opacity * (l.effects?.opacity ?? 1);
    if (opacity <= 0) continue;
    const videoSec = videoTimeAt(l, t);
    // An animated image's frame now: its texture, and `content` so caches see it change.
    const still = l.frames && animatedFrameAt(l.frames, l.startSec, t);
    if (still !== undefined) key += `|${i}#${still}`;
    layers.push({
      layer: i,
      ...textureAt(l, Math.max(Math.abs(m.scale), Math.abs(m.scaleY ?? m.scale))),
      x: l.x + a.dx,
      y: l.y + a.dy,
      width: l.width,
      height: l.height,
      scale: a.scale,
      opacity,
      ...(videoSec === undefined ? {} : { videoSec, matrix: l.video!.matrix }),
      ...(still === undefined ? {} : { texture: l.frames!.textures[still]!, content: still }),
      ...motionExtras(m),
      ...(l.effects ? { effects: l.effects } : {}),
    });
    key += `|${i}:${a.dx.toFixed(3)},${a.dy.toFixed(3)},${a.scale.toFixed(5)},${opacity.toFixed(5)}${motionKey(m)}`;
  }
  return { layers, key };
}

/**
 * The texture a layer is drawn from at `scale`: its own up to 1, else the least of its zoomed
 * copies at or above the scale (the largest past them all), which shrinks it by less than 2
 * (zoom-rasters.ts: each is twice the one before), so linear filtering still reads every texel.
 * Its crop, in that texture's texels: the same rectangle of the picture.
 */
export function textureAt(l: LayerPlan, scale: number): { texture: TextureRef; crop: TextureCrop | undefined } {
  const z = l.zoomed;
  if (!z?.length || scale <= 1) return { texture: l.texture, crop: l.crop };
  const { texture } = z.find((q) => q.scale >= scale) ?? z[z.length - 1]!;
  const c = l.crop;
  if (!c) return { texture, crop: undefined };
  const kx = texture.width / l.texture.width;
  const ky = texture.height / l.texture.height;
  return { texture, crop: { x0: c.x0 * kx, x1: c.x1 * kx, y0: c.y0 * ky, y1: c.y1 * ky } };
}

/** Everything visible in frame `frame` (time `frame / fps`), in draw order. Pure. */
export function frameState(index: FrameIndex, frame: number): FrameState {
  const { plan } = index;
  const scene = sceneAt(plan, frame);
  const t = frame / plan.fps;
  const own = sceneState(index, scene, t);
  const next = plan.scenes[scene.index + 1];
  if (!next?.transition || frame < next.startFrame || frame >= next.endFrame) return { scene, ...own };
  const progress = Math.min(1, Math.max(0, (t - next.startSec) / next.transition.durationSec));
  const theirs = sceneState(index, next, t);
  return {
    scene,
    layers: own.layers,
    incoming: { scene: next, layers: theirs.layers, type: next.transition.type, progress },
    key: `${own.key}>${next.transition.type}@${progress.toFixed(5)}>${theirs.key}`,
  };
}

/** What one layer looks like in one frame. */
export interface LayerState {
  layer: number;
  texture: TextureRef;
  x: number;
  y: number;
  width: number;
  height: number;
  crop?: TextureCrop | undefined;
  scale: number;
  /** Keyframed motion (worker/plan/animate.ts): a vertical scale of its own, degrees clockwise, the part shown. */
  scaleY?: number | undefined;
  rotation?: number | undefined;
  mask?: { x0: number; y0: number; x1: number; y1: number } | undefined;
  opacity: number;
  /** A video layer's source time in this frame (frameState), */
  videoSec?: number | undefined;
  /** then its decoded frame (the segment renderer): yuv420p of texture.width x texture.height, and its timestamp. */
  pixels?: Uint8Array | undefined;
  content?: number | undefined;
  /** The YCbCr matrix of a video layer's frames. */
  matrix?: YuvMatrix | undefined;
  /** Blur, corners, border, filters, chroma key, blurred background (effects-shader.ts). */
  effects?: LayerEffects | undefined;
}

/**
 * The frame an animated layer shows at movie time `t` (seconds; the layer starts at `startSec`):
 * the last frame whose start is at or before the time since the layer appeared, within the
 * current play; the last frame once every play has ended. Pure.
 */
export function animatedFrameAt(a: AnimatedLayerPlan, startSec: number, t: number): number {
  // Milliseconds, with slack for float sums (frame / fps), so a frame starting exactly now shows.
  const elapsed = Math.max(0, (t - startSec) * 1000) + 1e-6;
  if (a.loops > 0 && elapsed >= a.lengthMs * a.loops) return a.startsMs.length - 1;
  const within = elapsed % a.lengthMs;
  let lo = 0;
  let hi = a.startsMs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.startsMs[mid]! <= within) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
