/**
 * The render plan: everything a segment renderer needs, fully resolved by preparation and plain
 * JSON so it crosses the process boundary to segment children unchanged. Pixel sizes are output
 * pixels (already scaled for drafts); times are seconds on the movie timeline.
 */

import type { OutputFormatName } from '../../lib/output-formats.ts';
import type { TransitionType } from '../../movie/index.ts';
import type { MotionTrack } from '../../movie/motion.ts';

export type { TransitionType };

import type { LayerEffects } from './layer-effects.ts';
import type { VideoSourcePlan } from './video-source.ts';

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

/** A video layer's source: decoded while frames are drawn (worker/draw/video-reader.ts). */
interface VideoLayerPlan extends VideoSourcePlan {
  /** Source seconds (from the source's start) where the clip starts, and how long one pass lasts. */
  trimStartSec: number;
  lengthSec: number;
  /** Play the pass again while the layer lasts; otherwise the pass's last frame stays. */
  loop: boolean;
}

export interface LayerPlan {
  /** JSON path of the element the layer draws, for messages. */
  path: string;
  sceneIndex: number;
  /** The picture; for a video layer, a name and the decoded frames' size (the pixels come per frame). */
  texture: TextureRef;
  video?: VideoLayerPlan | undefined;
  /** Top-left corner and drawn size in output pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The rectangle of the texture to draw, in texels (a caption word's highlight); all of it when absent. */
  crop?: TextureCrop | undefined;
  startSec: number;
  endSec: number;
  animation?: { preset: AnimationPreset; durationSec: number };
  /** An animated GIF or WebP: its frames' textures and times (worker/prepare/assets/animated-image.ts). */
  frames?: AnimatedLayerPlan | undefined;
  /** Keyframe tracks (movie/motion.ts), times from `startSec`: document keys and expanded presets. */
  motion?: MotionTrack[] | undefined;
  /**
   * A piece of a text reveal (one word or letter, `crop` of the element's texture): the element's
   * whole rectangle (its motion's centre and crop origin) and the piece's own tracks, times from
   * `unit.startSec` (the element's start).
   */
  unit?: { x: number; y: number; width: number; height: number; startSec: number; tracks: MotionTrack[] } | undefined;
  /** Blur, corners, border, filters, chroma key, opacity, blurred background (layer-effects.ts). */
  effects?: LayerEffects | undefined;
  /**
   * A text, shape or SVG picture its motion zooms above 1: the same picture drawn again with
   * `scale` times the texels (worker/prepare/zoom-rasters.ts), scales ascending, so that it stays
   * sharp; a frame draws the least one at or above its scale (frame-state.ts), `texture` at 1 or less.
   */
  zoomed?: ZoomedTexture[] | undefined;
}

/** A sharper copy of a layer's texture: the same picture, `scale` times the texels on each side. */
export interface ZoomedTexture {
  scale: number;
  texture: TextureRef;
}

/** Texels [x0, x1) x [y0, y1) of a texture. */
export interface TextureCrop {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface ScenePlan {
  index: number;
  startFrame: number;
  endFrame: number;
  /** The scene's start on the movie timeline (transition progress is measured from it). */
  startSec: number;
  /** How this scene replaces the previous one; the previous scene's last frames overlap this one's first. */
  transition?: { type: TransitionType; durationSec: number } | undefined;
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
  /** Frames per encoder chunk (segments.ts CHUNK_SEC): segments start only on chunk boundaries. */
  chunkFrames: number;
  /** x264 threads for every chunk of the render, wherever it is encoded. */
  encoderThreads: number;
  /** The render's output format (a video one: frames are planned only for those): how chunks are encoded and joined. */
  format: OutputFormatName;
  /**
   * Frames keep their alpha (movie/output-kind.ts rendersAlpha: mov or webm, every background
   * transparent): drawn on transparent black and sent to the encoder as yuva420p.
   */
  alpha?: boolean | undefined;
}

/** The frames of a layer that shows an animated image: part of the render plan (plain JSON). */
export interface AnimatedLayerPlan {
  /** Frame i's texture; frame 0 is the layer's own. */
  textures: TextureRef[];
  /** Milliseconds from the animation's start at which each frame starts (starts[0] = 0). */
  startsMs: number[];
  /** One play, milliseconds. */
  lengthMs: number;
  loops: number;
}
