/** A frame range [from, to) rendered and encoded as one segment. */
export interface FrameRange {
  from: number;
  to: number;
}

/**
 * Seconds of movie per encoder chunk. Every chunk is encoded by its own encoder process from the
 * same settings, so its bytes depend on its own frames alone: x264's rate control carries state
 * from frame to frame (CRF's complexity history, the I-frame QP from the P-frames before it), and
 * a render cut anywhere else would not decode to the same frames as the one-pod render. Cutting
 * only between chunks is what makes a render on N pods frame-identical to the render on one, for
 * every N. Ten seconds: one process start per 300 frames at 30 fps (~1% of the encoding CPU), and
 * a whole number of GOPs for every quality (codecArgs: 2 s or 10 s).
 */
const CHUNK_SEC = 10;

/** Frames per encoder chunk at `fps`. */
export function chunkFramesFor(fps: number): number {
  return Math.max(1, Math.round(fps * CHUNK_SEC));
}

/**
 * Splits `totalFrames` into at most `parts` contiguous, non-empty ranges that start on a chunk
 * boundary (a multiple of `chunkFrames`), as equal as whole chunks allow; pure. The segment is
 * the unit of work of `--parallel` processes on one machine and of pods on a cluster.
 */
export function splitFrames(totalFrames: number, parts: number, chunkFrames = 1): FrameRange[] {
  const chunk = Math.max(1, Math.floor(chunkFrames));
  const chunks = Math.ceil(totalFrames / chunk);
  const n = Math.max(1, Math.min(Math.floor(parts), chunks));
  const out: FrameRange[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.min(totalFrames, Math.floor((i * chunks) / n) * chunk);
    const to = Math.min(totalFrames, Math.floor(((i + 1) * chunks) / n) * chunk);
    if (to > from) out.push({ from, to });
  }
  return out;
}

/** The chunks of a frame range: [from, to) cut at the multiples of `chunkFrames`. */
export function chunksOf(range: FrameRange, chunkFrames: number): FrameRange[] {
  const out: FrameRange[] = [];
  for (let from = range.from; from < range.to; ) {
    const to = Math.min(range.to, (Math.floor(from / chunkFrames) + 1) * chunkFrames);
    out.push({ from, to });
    from = to;
  }
  return out;
}
