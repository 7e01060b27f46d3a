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

const PHASE_ORDER: Record<string, number> = { queued: 0, preparing: 1, rendering: 2 };

/**
 * A progress report as a Render's status may show it after `shown`: the phase never goes back
 * and neither does the progress, the rule the API holds its own progress to
 * (store/lifecycle/transitions.ts). A retried pod starts its work over; what `kubectl get renders`
 * shows does not drop back to `preparing 0` while the API says 46%. A report without phase or
 * progress (frames, an error) is left as it is.
 */
export function monotonicReport<T extends { phase?: string; progress?: number }>(
  shown: { phase?: string | undefined; progress?: number | undefined },
  report: T,
): T {
  const out = { ...report };
  const before = PHASE_ORDER[shown.phase ?? ''];
  if (out.phase !== undefined && before !== undefined && (PHASE_ORDER[out.phase] ?? 3) < before) {
    out.phase = shown.phase as T['phase'];
  }
  if (out.progress !== undefined && shown.progress !== undefined && out.progress < shown.progress) {
    out.progress = shown.progress as T['progress'];
  }
  return out;
}
