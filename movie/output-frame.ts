/** Frame size and rate of the output video, from the preset or explicit width and height. */
import type { Movie } from './validate.ts';

export interface OutputFrame {
  width: number;
  height: number;
  fps: number;
}

const DEFAULT_FPS = 30;
const DEFAULT_RESOLUTION = '1080p';

/** Aspect presets as width:height. */
const RATIOS: Record<string, [number, number]> = {
  '16:9': [16, 9],
  '9:16': [9, 16],
  '1:1': [1, 1],
  '4:5': [4, 5],
  '4:3': [4, 3],
};

/** Encoders want even dimensions (4:2:0 chroma subsampling). */
const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * The output frame (size and rate) of a valid movie, not its format (lib/output-formats.ts). The
 * resolution names the short side; the long side follows
 * the preset's ratio, rounded to even. A draft (`opts.draft` or `movie.draft`) halves both sides,
 * rounded to even.
 */
export function outputFrame(movie: Movie, opts: { draft?: boolean } = {}): OutputFrame {
  let width: number;
  let height: number;
  if (movie.preset !== undefined) {
    const short = Number.parseInt(movie.resolution ?? DEFAULT_RESOLUTION, 10);
    const [w, h] = RATIOS[movie.preset]!;
    if (w >= h) {
      height = short;
      width = even((short * w) / h);
    } else {
      width = short;
      height = even((short * h) / w);
    }
  } else {
    width = movie.width!;
    height = movie.height!;
  }
  if (opts.draft || movie.draft) {
    width = even(width / 2);
    height = even(height / 2);
  }
  return { width, height, fps: movie.fps ?? DEFAULT_FPS };
}
