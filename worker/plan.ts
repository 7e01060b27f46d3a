/**
 * The render plan: everything a segment renderer needs, fully resolved by preparation and plain
 * JSON so it crosses the process boundary to segment children unchanged. Pixel sizes are output
 * pixels (already scaled for drafts); times are seconds on the movie timeline.
 */
export interface TextureRef {
  /** Raw RGBA8 file, rows top to bottom, straight alpha. */
  file: string;
  width: number;
  height: number;
}

export type AnimationPreset =
  | 'zoom-in'
  | 'zoom-out'
  | 'fade-in'
  | 'fade-out'
  | 'slide-in-up'
  | 'slide-in-down'
  | 'slide-in-left'
  | 'slide-in-right';

export interface LayerPlan {
  /** JSON path of the element the layer draws, for messages. */
  path: string;
  sceneIndex: number;
  texture: TextureRef;
  /** Top-left corner and drawn size in output pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Horizontal slice of the texture to draw, in texels (subtitle word highlights). */
  crop?: { x0: number; x1: number };
  startSec: number;
  endSec: number;
  animation?: { preset: AnimationPreset; durationSec: number };
}

export interface ScenePlan {
  index: number;
  startFrame: number;
  endFrame: number;
  /** Background colour, 0..255 each. */
  background: [number, number, number];
}

export type VideoCodec = 'libx264' | 'h264_nvenc';

/** The movie's `quality`, or `lossless` (benchmarks: the reference frames SSIM is measured against). */
export type EncodeQuality = 'fast' | 'balanced' | 'small' | 'lossless';

export interface RenderPlan {
  width: number;
  height: number;
  fps: number;
  totalFrames: number;
  scenes: ScenePlan[];
  /** Draw order: document order within a scene, the watermark last. */
  layers: LayerPlan[];
  codec: VideoCodec;
  quality: EncodeQuality;
}
