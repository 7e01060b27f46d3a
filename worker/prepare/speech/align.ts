import type { TimedWord } from './word-timing.ts';

/**
 * Forced alignment of a clip to a guide synthesis of the same text, the method of aeneas:
 * MFCCs of both signals, dynamic time warping inside a band around the diagonal, and every
 * guide word start carried through the warping path. The guide is espeak-ng, whose word times
 * are exact; the clip is speech from an engine that reports no word times (OpenAI TTS).
 *
 * Both signals keep their own sample rate: frames are 25 ms every 10 ms, and the mel filters
 * span 60-7600 Hz, so features of 22.05 kHz and 24 kHz audio are comparable without resampling.
 */

export interface Pcm {
  samples: Int16Array;
  sampleRate: number;
}

/** Feature frames: `count` rows of `dim` coefficients, one every `hopSec` (the rate's whole samples). */
export interface Features {
  count: number;
  dim: number;
  hopSec: number;
  data: Float32Array;
}

const HOP_SEC = 0.01;
const WIN_SEC = 0.025;
const MELS = 26;
const CEPS = 13;
const F_MIN = 60;
const F_MAX = 7600;
/** Energy floor below the loudest frame (60 dB): digital silence and room noise look alike. */
const FLOOR = 1e-6;
/** Upper bound on DTW cells (one byte each), so a long clip cannot exhaust the worker's memory. */
const MAX_CELLS = 32_000_000;
/** Silence added around the guide (see alignWords). */
const PAD_SEC = 0.5;

const melOf = (hz: number): number => 2595 * Math.log10(1 + hz / 700);
const hzOf = (mel: number): number => 700 * (10 ** (mel / 2595) - 1);

/** Bit-reversal permutation and twiddles of an `n`-point FFT, made once per size. */
function fftTables(n: number): { rev: Uint32Array; cos: Float64Array; sin: Float64Array } {
  const bits = Math.log2(n);
  const rev = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    rev[i] = r;
  }
  const cos = new Float64Array(n / 2);
  const sin = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) {
    cos[k] = Math.cos((-2 * Math.PI * k) / n);
    sin[k] = Math.sin((-2 * Math.PI * k) / n);
  }
  return { rev, cos, sin };
}

/** In-place iterative radix-2 FFT of (re, im); length a power of two. */
function fft(re: Float64Array, im: Float64Array, t: ReturnType<typeof fftTables>): void {
  const n = re.length;
  const { rev, cos, sin } = t;
  for (let i = 0; i < n; i++) {
    const j = rev[i]!;
    if (i < j) {
      const r = re[i]!;
      re[i] = re[j]!;
      re[j] = r;
      const m = im[i]!;
      im[i] = im[j]!;
      im[j] = m;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const stride = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const a = i + k;
        const b = a + half;
        const cr = cos[k * stride]!;
        const ci = sin[k * stride]!;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
      }
    }
  }
}

/** Triangular mel filters over the bins of an `nfft`-point spectrum at `rate`. */
function melFilters(nfft: number, rate: number): { from: number; weights: Float64Array }[] {
  const lo = melOf(F_MIN);
  const hi = melOf(Math.min(F_MAX, rate / 2));
  const edges = Array.from({ length: MELS + 2 }, (_, i) => (hzOf(lo + ((hi - lo) * i) / (MELS + 1)) * nfft) / rate);
  return Array.from({ length: MELS }, (_, m) => {
    const [l, c, r] = [edges[m]!, edges[m + 1]!, edges[m + 2]!];
    const from = Math.ceil(l);
    const to = Math.floor(r);
    const weights = new Float64Array(Math.max(0, to - from + 1));
    for (let k = from; k <= to; k++) weights[k - from] = k <= c ? (k - l) / (c - l) : (r - k) / (r - c);
    return { from, weights };
  });
}

/**
 * MFCCs (13, orthonormal DCT of log mel energies) every 10 ms, with the energy floored 60 dB
 * under the loudest frame and each coefficient's mean removed (speaker and channel differences).
 */
export function mfcc(pcm: Pcm): Features {
  const rate = pcm.sampleRate;
  const win = Math.round(WIN_SEC * rate);
  const hop = Math.round(HOP_SEC * rate);
  const count = pcm.samples.length < win ? 0 : 1 + Math.floor((pcm.samples.length - win) / hop);
  let nfft = 1;
  while (nfft < win) nfft <<= 1;
  const hamming = Float64Array.from({ length: win }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (win - 1)));
  const filters = melFilters(nfft, rate);
  const tables = fftTables(nfft);
  const energies = new Float64Array(count * MELS);
  const re = new Float64Array(nfft);
  const im = new Float64Array(nfft);
  const power = new Float64Array(nfft / 2 + 1);
  const windowed = (f: number, into: Float64Array): void => {
    into.fill(0);
    if (f >= count) return;
    const at = f * hop;
    let prev = at > 0 ? pcm.samples[at - 1]! : 0;
    for (let i = 0; i < win; i++) {
      const s = pcm.samples[at + i]!;
      into[i] = ((s - 0.97 * prev) / 32768) * hamming[i]!;
      prev = s;
    }
  };
  const melBands = (f: number): void => {
    for (let m = 0; m < MELS; m++) {
      const { from, weights } = filters[m]!;
      let e = 0;
      for (let k = 0; k < weights.length; k++) e += weights[k]! * power[from + k]!;
      energies[f * MELS + m] = e;
      if (e > loudest) loudest = e;
    }
  };
  let loudest = 0;
  // Two real frames per complex FFT (one as the real part, one as the imaginary part), split
  // by the conjugate symmetry of real signals' spectra: half the transforms.
  for (let f = 0; f < count; f += 2) {
    windowed(f, re);
    windowed(f + 1, im);
    fft(re, im, tables);
    for (const [frame, sign] of [
      [f, 1],
      [f + 1, -1],
    ] as const) {
      if (frame >= count) break;
      for (let k = 0; k <= nfft / 2; k++) {
        const c = (nfft - k) % nfft;
        // X[k] = (Z[k] + conj Z[N-k]) / 2; Y[k] = (Z[k] - conj Z[N-k]) / 2i
        const r = (re[k]! + sign * re[c]!) / 2;
        const i = (im[k]! - sign * im[c]!) / 2;
        power[k] = r * r + i * i;
      }
      melBands(frame);
    }
  }
  const floor = Math.max(loudest * FLOOR, 1e-12);
  const data = new Float32Array(count * CEPS);
  const dct = Float64Array.from({ length: CEPS * MELS }, (_, i) => {
    const c = Math.floor(i / MELS);
    const m = i % MELS;
    return Math.sqrt((c === 0 ? 1 : 2) / MELS) * Math.cos((Math.PI * c * (m + 0.5)) / MELS);
  });
  const mean = new Float64Array(CEPS);
  const log = new Float64Array(MELS);
  for (let f = 0; f < count; f++) {
    for (let m = 0; m < MELS; m++) log[m] = Math.log(Math.max(energies[f * MELS + m]!, floor));
    for (let c = 0; c < CEPS; c++) {
      let v = 0;
      for (let m = 0; m < MELS; m++) v += dct[c * MELS + m]! * log[m]!;
      data[f * CEPS + c] = v;
      mean[c] = mean[c]! + v / count;
    }
  }
  for (let f = 0; f < count; f++) for (let c = 0; c < CEPS; c++) data[f * CEPS + c] = data[f * CEPS + c]! - mean[c]!;
  return { count, dim: CEPS, hopSec: hop / rate, data };
}

/**
 * Dynamic time warping of `a` onto `b` inside a band around the diagonal (Sakoe-Chiba, scaled
 * to the two lengths). Returns, for every frame of `a`, the first frame of `b` the optimal
 * path pairs it with. Accumulated costs are kept one row at a time; only the step taken into
 * each cell is stored (a byte per cell).
 */
export function warp(a: Features, b: Features, bandFrames: number): Int32Array {
  const n = a.count;
  const m = b.count;
  const dim = a.dim;
  const slope = m > 1 && n > 1 ? (m - 1) / (n - 1) : 0;
  const width = Math.max(1, Math.min(bandFrames, Math.floor(MAX_CELLS / Math.max(1, n) / 2)), Math.ceil(slope) + 1);
  const span = 2 * width + 1;
  const lo = new Int32Array(n);
  const steps = new Uint8Array(n * span); // 0 diagonal, 1 from the row above, 2 from the left
  // Whole rows of accumulated cost (two of them): cells outside the band stay infinite, since
  // the band only moves right and the cell left of each row's band is reset.
  let prev = new Float64Array(m).fill(Number.POSITIVE_INFINITY);
  let cur = new Float64Array(m).fill(Number.POSITIVE_INFINITY);
  const ad = a.data;
  const bd = b.data;
  for (let i = 0; i < n; i++) {
    const centre = Math.round(i * slope);
    const start = Math.max(0, centre - width);
    const end = Math.min(m - 1, centre + width);
    lo[i] = start;
    if (start > 0) cur[start - 1] = Number.POSITIVE_INFINITY;
    const ai = i * dim;
    const row = i * span - start;
    for (let j = start; j <= end; j++) {
      let d = 0;
      const bj = j * dim;
      for (let k = 0; k < dim; k++) {
        const x = ad[ai + k]! - bd[bj + k]!;
        d += x * x;
      }
      d = Math.sqrt(d);
      if (i === 0 && j === 0) {
        cur[0] = d;
        continue;
      }
      const diag = j > 0 ? prev[j - 1]! : Number.POSITIVE_INFINITY;
      const up = prev[j]!;
      const left = j > 0 ? cur[j - 1]! : Number.POSITIVE_INFINITY;
      let best = diag;
      let step = 0;
      if (up < best) {
        best = up;
        step = 1;
      }
      if (left < best) {
        best = left;
        step = 2;
      }
      cur[j] = d + best;
      steps[row + j] = step;
    }
    [prev, cur] = [cur, prev];
  }
  const first = new Int32Array(n);
  let i = n - 1;
  let j = m - 1;
  while (i > 0 || j > 0) {
    first[i] = j;
    const step = steps[i * span + (j - lo[i]!)];
    if (step === 0) {
      i--;
      j--;
    } else if (step === 1) i--;
    else j--;
  }
  first[0] = 0;
  return first;
}

/**
 * Word times of `clip` from the guide's: each guide word start is mapped through the warping
 * path. Times never go backwards; each word ends where the next starts, the last at the clip's
 * end. An empty clip or guide keeps the guide's words stretched to the clip's length.
 */
export function alignWords(guide: Pcm, guideWords: TimedWord[], clip: Pcm): TimedWord[] {
  const clipSec = clip.samples.length / clip.sampleRate;
  const guideSec = guide.samples.length / guide.sampleRate;
  // The guide gets silence at both ends, so silence the clip begins or ends with has guide
  // frames to pair with instead of stretching the first or last word over it.
  const pad = Math.round(PAD_SEC * guide.sampleRate);
  const padded = new Int16Array(guide.samples.length + 2 * pad);
  padded.set(guide.samples, pad);
  const a = mfcc({ samples: padded, sampleRate: guide.sampleRate });
  const b = mfcc(clip);
  if (a.count < 2 || b.count < 2) {
    const k = guideSec > 0 ? clipSec / guideSec : 0;
    return guideWords.map((w) => ({ ...w, startSec: w.startSec * k, endSec: w.endSec * k }));
  }
  // A band of 15% of the longer clip either side of the diagonal (at least 2 s): OpenAI and espeak differ in pace and
  // pauses, rarely by more than that.
  const band = Math.max(200, Math.ceil(0.15 * Math.max(a.count, b.count)));
  const first = warp(a, b, band);
  let last = 0;
  const starts = guideWords.map((w) => {
    const f = Math.min(a.count - 1, Math.max(0, Math.round((w.startSec + pad / guide.sampleRate) / a.hopSec)));
    last = Math.max(last, Math.min(clipSec, first[f]! * b.hopSec));
    return last;
  });
  return guideWords.map((w, i) => ({
    ...w,
    startSec: starts[i]!,
    endSec: Math.max(starts[i]!, starts[i + 1] ?? clipSec),
  }));
}
