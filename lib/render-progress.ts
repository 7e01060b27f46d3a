/** A render's progress while it prepares: 0 to 19 for `fraction` 0..1 of the preparing work. */
export function preparingProgress(fraction: number): number {
  return Math.min(19, Math.floor(fraction * 19));
}

/**
 * A render's progress while its frames are encoded: 20 when preparing is over, 99 when every
 * frame is (the join and the upload remain), 100 only when it is done. The one formula for the
 * one-machine renderer (the sum of its segments) and the operator (the sum of its segment pods).
 */
export function renderingProgress(framesDone: number, totalFrames: number): number {
  if (totalFrames <= 0) return 20;
  return Math.min(99, 20 + Math.floor((79 * Math.min(framesDone, totalFrames)) / totalFrames));
}
