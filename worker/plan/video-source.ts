/**
 * Seconds of slack in source-time comparisons (float sums of frame / fps): the clip decoder
 * (draw/video-reader.ts) and the chunk compositor (plan/composite-plan.ts, encode/composite-args.ts)
 * use the same, so a clip frame is picked the same way by both.
 */
export const SOURCE_TIME_SLACK = 1e-6;

/** The YCbCr matrix of decoded bytes: the clip's own (the range is always limited). */
export type YuvMatrix = 'bt709' | 'bt601';

/** How a clip is decoded for one layer: part of the render plan (plain JSON). */
export interface VideoSourcePlan {
  /** Local file (fetched by preparation). */
  file: string;
  /** The container's first timestamp (MediaInfo.startSec): source times count from it. */
  startSec: number;
  /** Size of the frames handed to the renderer (the element's box after fit), and the crop of cover. */
  width: number;
  height: number;
  /** Size before the crop, when fit is cover (the scaled frame is cut to width x height at its centre). */
  scaledWidth?: number | undefined;
  scaledHeight?: number | undefined;
  /** The YCbCr matrix of the decoded bytes (the source's; the range is always limited). */
  matrix: YuvMatrix;
}

/**
 * The filters that make a clip's decoded frames the layer's: scaled to its box (and cut to it for
 * cover), limited range, yuv420p. The chunk compositor (worker/encode/composite-args.ts) uses the same, so a
 * clip's pixels are the same whichever way a chunk is made.
 */
export function clipFilter(plan: VideoSourcePlan): string {
  const size = plan.scaledWidth ? `${plan.scaledWidth}:${plan.scaledHeight}` : `${plan.width}:${plan.height}`;
  const crop = plan.scaledWidth ? `,crop=${plan.width}:${plan.height}` : '';
  return `scale=${size}:flags=bicubic:out_range=tv${crop},format=yuv420p`;
}
