/** A frame range [from, to) rendered and encoded as one segment. */
export interface FrameRange {
  from: number;
  to: number;
}

/**
 * Splits `totalFrames` into at most `parts` contiguous, non-empty ranges of near-equal length,
 * pure. The segment is also the unit cluster rendering will hand to separate pods.
 */
export function splitFrames(totalFrames: number, parts: number): FrameRange[] {
  const n = Math.max(1, Math.min(parts, totalFrames));
  const out: FrameRange[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * totalFrames) / n);
    const to = Math.floor(((i + 1) * totalFrames) / n);
    if (to > from) out.push({ from, to });
  }
  return out;
}
