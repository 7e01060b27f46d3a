/**
 * Loudness normalisation of the final mix, with ffmpeg only (no loudness maths of our own): the
 * mix is measured by ffmpeg's ebur128 filter (ITU-R BS.1770 integrated loudness, gated; true peak
 * 4x oversampled), then encoded once with what brings it to the target, and the encoded file is
 * measured again.
 *
 * - Linear (the usual case for music and sounds): one constant gain, `volume`, when the measured
 *   true peak plus that gain stays CODEC_HEADROOM_DB under the ceiling. Nothing else about the
 *   mix changes: ducking, fades and the balance of every source are as mixed.
 * - Limited (most speech at -14 LUFS: its true peak sits 15 to 20 dB above its loudness, so the
 *   gain alone would pass the ceiling): the gain, then a look-ahead limiter (`alimiter`, 5 ms
 *   attack, 50 ms release, its delay compensated) at 4x the rate, so it holds true peaks, not only
 *   samples. Limiting takes some loudness away, so the gain is found by measuring the limited mix
 *   again (secant steps, LIMITED_PASSES at most) until it is within TOLERANCE_LU.
 * - The encoded file over the ceiling all the same: encoded again that much lower (encodeMix).
 *
 * Why not `loudnorm`: its linear mode is the `volume` above, but where the ceiling needs limiting
 * it falls back to its dynamic mode, a 3-second AGC whose own limiter left espeak speech 2 LU under
 * a -14 target even with its second-pass offset (measured here: -15.9 LUFS), and which moves the
 * music and the voice against each other over time. It also refuses a linear gain for a steady
 * tone (measured LRA 0: dynamic mode, on ffmpeg 5.1).
 *
 * A mix with nothing above the absolute gate (silence, or shorter than one 400 ms block) measures
 * -70 LUFS and -inf dBTP: it is left as it is.
 */
import { AppError } from '../../../lib/errors.ts';
import { runMediaTool } from '../../../lib/process/ffmpeg-runner.ts';
import { DEFAULT_LOUDNESS, type Movie } from '../../../movie/index.ts';
import { type AudioCodec, type AudioInput, audioEncodeArgs, pcmInputArgs } from '../ffmpeg-args.ts';

/** What the mix is normalised to: integrated loudness in LUFS, true-peak ceiling in dBTP. */
export interface LoudnessTarget {
  target: number;
  truePeak: number;
}

/** ebur128's summary: integrated loudness (LUFS, -70 when nothing passes the gate) and true peak (dBTP). */
export interface Measured {
  integrated: number;
  truePeak: number;
}

interface Normalisation {
  /** none: silent or nothing to measure; linear: one gain; limited: a gain and the true-peak limiter. */
  mode: 'none' | 'linear' | 'limited';
  /** The filters the encode applies (empty for none). */
  filters: string[];
  gainDb: number;
  /** The limiter's ceiling (dBTP), and the most a linear gain may bring the true peak to. */
  limitDb: number;
  /** The mix as it was made. */
  measured: Measured;
  /** The mix as it will be encoded (measured again when limited; computed when linear). */
  result: Measured;
  /** ffmpeg runs that measured (the first one included). */
  passes: number;
}

interface EncodedNormalisation extends Normalisation {
  /** The encoded file, measured. */
  encoded: Measured;
  /** Encodes made again because the file's true peak was over the ceiling. */
  corrections: number;
}

/** Below this nothing passed BS.1770's absolute gate (ebur128 prints -70.0). */
const GATE_LUFS = -70;
/** The limited search stops this close to the target (ebur128 prints tenths). */
const TOLERANCE_LU = 0.2;
/**
 * The mix is held this far under the ceiling before it is encoded: AAC's quantisation puts back
 * some of what a limiter took off the peaks (measured here on espeak speech limited to -1 dBTP
 * and encoded at 128 kb/s: -0.5 dBTP in the file).
 */
const CODEC_HEADROOM_DB = 0.5;
/** Measurements of the limited mix at most (the first guess included). */
const LIMITED_PASSES = 4;
/** More limiting than this is never tried, however quiet the mix (bounds the search). */
const MAX_LIMITING_DB = 24;
const LIMITER_ATTACK_MS = 5;
const LIMITER_RELEASE_MS = 50;
/** The limiter runs at 4x the mix rate: the rate ebur128 measures true peak at. */
const OVERSAMPLE = 4;
/** Encodes made again at most when the encoded file's true peak is over the ceiling. */
const MAX_CORRECTIONS = 2;
/** A correction lowers by the excess plus this (ebur128 prints tenths: the excess is rounded). */
const CORRECTION_MARGIN_DB = 0.05;

/** The movie's setting with its defaults; undefined when the movie turns normalisation off. */
export function loudnessTarget(movie: Pick<Movie, 'loudness'>): LoudnessTarget | undefined {
  const l = movie.loudness;
  if (l === false) return undefined;
  const o = l === true || l === undefined ? {} : l;
  return { target: o.target ?? DEFAULT_LOUDNESS.target, truePeak: o.truePeak ?? DEFAULT_LOUDNESS.truePeak };
}

/** Reads the summary ebur128 logs when it ends (`I: ... LUFS`, `Peak: ... dBFS`); -inf as -Infinity. */
export function parseEbur128Summary(log: string): Measured {
  const at = log.lastIndexOf('Summary:');
  const summary = at === -1 ? '' : log.slice(at);
  const i = /Integrated loudness:\s+I:\s+(\S+) LUFS/.exec(summary);
  const tp = /True peak:\s+Peak:\s+(\S+) dBFS/.exec(summary);
  if (!i || !tp) throw new AppError('RENDER_FAILED', `ffmpeg's ebur128 printed no summary: ${log.slice(-500)}`);
  const num = (s: string) => (/^-inf$/i.test(s) ? Number.NEGATIVE_INFINITY : Number(s));
  const measured = { integrated: num(i[1]!), truePeak: num(tp[1]!) };
  if (Number.isNaN(measured.integrated) || Number.isNaN(measured.truePeak))
    throw new AppError('RENDER_FAILED', `ffmpeg's ebur128 summary could not be read: ${summary.slice(0, 500)}`);
  return measured;
}

/** An input (`pcmInputArgs`, or `-i file`) through `filters`, measured by ebur128; nothing is written. */
function measureArgs(input: readonly string[], filters: readonly string[]): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    // The summary is logged at info; framelog=verbose keeps the ten lines a second out of it.
    '-loglevel',
    'info',
    ...input,
    '-af',
    [...filters, 'ebur128=peak=true:framelog=verbose'].join(','),
    '-f',
    'null',
    '-',
  ];
}

/** Measures `input` (ffmpeg input arguments) through `filters`. */
export async function measureLoudness(
  ffmpeg: string,
  input: readonly string[],
  filters: readonly string[] = [],
  signal?: AbortSignal,
): Promise<Measured> {
  let log = '';
  await runMediaTool(ffmpeg, measureArgs(input, filters), {
    signal,
    stdout: 'ignore',
    label: 'ffmpeg (loudness)',
    // The summary comes last; the input's description before it is short.
    onStderr: (d) => {
      log = (log + d.toString()).slice(-16_000);
    },
  });
  return parseEbur128Summary(log);
}

const db = (x: number) => x.toFixed(2);

function linearFilters(gainDb: number): string[] {
  return [`volume=${db(gainDb)}dB`];
}

/** The gain, then the look-ahead limiter at 4x the rate (true peaks), back to the mix's rate. */
export function limitedFilters(gainDb: number, ceilingDb: number, sampleRate: number): string[] {
  const limit = 10 ** (ceilingDb / 20);
  return [
    `volume=${db(gainDb)}dB`,
    `aresample=${sampleRate * OVERSAMPLE}`,
    // level=0: no automatic make-up gain; latency=1: the look-ahead's delay taken out again.
    `alimiter=limit=${limit.toFixed(6)}:attack=${LIMITER_ATTACK_MS}:release=${LIMITER_RELEASE_MS}:level=0:latency=1`,
    `aresample=${sampleRate}`,
  ];
}

/**
 * Measures the mix and finds what brings it to `target`: the filters its encode applies. Linear
 * when the gain keeps the true peak CODEC_HEADROOM_DB under the ceiling, limited otherwise.
 */
export async function planNormalisation(
  ffmpeg: string,
  audio: AudioInput,
  target: LoudnessTarget,
  signal?: AbortSignal,
): Promise<Normalisation> {
  const measured = await measureLoudness(ffmpeg, pcmInputArgs(audio), [], signal);
  const limitDb = target.truePeak - CODEC_HEADROOM_DB;
  if (!(measured.integrated > GATE_LUFS) || !Number.isFinite(measured.truePeak))
    return { mode: 'none', filters: [], gainDb: 0, limitDb, measured, result: measured, passes: 1 };
  const gain = target.target - measured.integrated;
  if (measured.truePeak + gain <= limitDb) {
    return {
      mode: 'linear',
      filters: linearFilters(gain),
      gainDb: gain,
      limitDb,
      measured,
      result: { integrated: target.target, truePeak: measured.truePeak + gain },
      passes: 1,
    };
  }
  const pcm = pcmInputArgs(audio);
  const found = await searchGain(
    (g) => measureLoudness(ffmpeg, pcm, limitedFilters(g, limitDb, audio.sampleRate), signal),
    gain,
    target.target,
  );
  return {
    mode: 'limited',
    filters: limitedFilters(found.gainDb, limitDb, audio.sampleRate),
    gainDb: found.gainDb,
    limitDb,
    measured,
    result: found.result,
    passes: 1 + found.passes,
  };
}

/**
 * The gain whose limited mix measures closest to `target`: loudness rises with the gain, more
 * slowly the more is limited, so secant steps from the linear gain get within TOLERANCE_LU in
 * two or three measurements (LIMITED_PASSES at most). Pure but for `measure`.
 */
export async function searchGain(
  measure: (gainDb: number) => Promise<Measured>,
  linearGainDb: number,
  target: number,
): Promise<{ gainDb: number; result: Measured; passes: number }> {
  const max = linearGainDb + MAX_LIMITING_DB;
  let prev: { g: number; m: Measured } | undefined;
  let g = linearGainDb;
  let best: { g: number; m: Measured } | undefined;
  let passes = 0;
  while (passes < LIMITED_PASSES) {
    const m = await measure(g);
    passes++;
    const point = { g, m };
    if (!best || Math.abs(m.integrated - target) < Math.abs(best.m.integrated - target)) best = point;
    if (Math.abs(m.integrated - target) <= TOLERANCE_LU) break;
    // The first step guesses a slope of 0.5 (about what limited speech shows); later ones take the
    // slope seen, at least 0.05 (a mix limited flat gains nothing more).
    let slope = 0.5;
    if (prev && point.g !== prev.g) slope = (m.integrated - prev.m.integrated) / (point.g - prev.g);
    if (!(slope >= 0.05)) slope = 0.05;
    const next = Math.min(max, g + (target - m.integrated) / slope);
    prev = point;
    if (Math.abs(next - g) < 0.01) break;
    g = next;
  }
  return { gainDb: best!.g, result: best!.m, passes };
}

/**
 * The mix -> AAC (audioEncodeArgs), normalised on the way when `target` is given: the measuring
 * passes, the one encode, and a measurement of the encoded file. When the file's true peak is
 * still over the ceiling (the encoder's overshoot beyond the headroom), the encode is made again
 * that much lower (the gain when linear, the limiter's ceiling when limited), MAX_CORRECTIONS
 * times at most. Resolves with what was done (undefined: not asked). `codec`: the output
 * format's (ffmpeg-args.ts audioCodecFor), AAC by default.
 */
export async function encodeMix(
  ffmpeg: string,
  audio: AudioInput,
  output: string,
  target: LoudnessTarget | undefined,
  signal?: AbortSignal,
  codec: AudioCodec = 'aac',
): Promise<EncodedNormalisation | undefined> {
  const encode = (filters: readonly string[]) =>
    runMediaTool(ffmpeg, audioEncodeArgs(audio, output, filters, codec), { signal, stdout: 'ignore' });
  if (!target) {
    await encode([]);
    return undefined;
  }
  const plan = await planNormalisation(ffmpeg, audio, target, signal);
  let { filters, gainDb, limitDb } = plan;
  await encode(filters);
  if (plan.mode === 'none') return { ...plan, encoded: plan.measured, corrections: 0 };
  let encoded = await measureLoudness(ffmpeg, ['-i', output], [], signal);
  let corrections = 0;
  while (encoded.truePeak > target.truePeak && corrections < MAX_CORRECTIONS) {
    const over = encoded.truePeak - target.truePeak + CORRECTION_MARGIN_DB;
    if (plan.mode === 'linear') {
      gainDb -= over;
      filters = linearFilters(gainDb);
    } else {
      limitDb -= over;
      filters = limitedFilters(gainDb, limitDb, audio.sampleRate);
    }
    await encode(filters);
    encoded = await measureLoudness(ffmpeg, ['-i', output], [], signal);
    corrections++;
  }
  return { ...plan, filters, gainDb, limitDb, encoded, corrections };
}
