import { animationState } from './animate.ts';
import type { LayerState } from './gpu/frame-renderer.ts';
import type { RenderPlan, ScenePlan } from './plan.ts';

export interface FrameState {
  scene: ScenePlan;
  layers: LayerState[];
  /** Equal keys mean identical pixels, so the encoder can be fed the previous frame again. */
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

function sceneAt(plan: RenderPlan, frame: number): ScenePlan {
  for (const s of plan.scenes) if (frame >= s.startFrame && frame < s.endFrame) return s;
  const last = plan.scenes[plan.scenes.length - 1];
  if (!last) throw new RangeError('A render plan needs at least one scene');
  return last;
}

/** Everything visible in frame `frame` (time `frame / fps`), in draw order. Pure. */
export function frameState(index: FrameIndex, frame: number): FrameState {
  const { plan } = index;
  const scene = sceneAt(plan, frame);
  const t = frame / plan.fps;
  const layers: LayerState[] = [];
  let key = `${scene.index}`;
  for (const i of index.layersByScene[scene.index] ?? []) {
    const l = plan.layers[i]!;
    if (t < l.startSec || t >= l.endSec) continue;
    const a = animationState(l.animation, t, l.startSec, l.endSec, plan.width, plan.height);
    if (a.opacity <= 0) continue;
    layers.push({
      layer: i,
      texture: l.texture,
      x: l.x + a.dx,
      y: l.y + a.dy,
      width: l.width,
      height: l.height,
      crop: l.crop,
      scale: a.scale,
      opacity: a.opacity,
    });
    key += `|${i}:${a.dx.toFixed(3)},${a.dy.toFixed(3)},${a.scale.toFixed(5)},${a.opacity.toFixed(5)}`;
  }
  return { scene, layers, key };
}
