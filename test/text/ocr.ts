/**
 * Helpers for the text tests: decode a frame of a rendered movie, prepare it for OCR, read it with
 * the tesseract CLI (apt: tesseract-ocr and its tesseract-ocr-* language packs, scripts/install.sh)
 * and score what was read against what was meant to be drawn.
 */
import { spawn } from 'node:child_process';
import sharp from 'sharp';
import { frameRgb, probe } from '../worker/media.ts';

/**
 * Languages whose script separates words by no space: tesseract is told to keep the spacing it
 * sees (preserve_interword_spaces), or it may put spaces between ideographs. `similarity` ignores
 * whitespace anyway; this keeps the printed OCR text readable.
 */
const NO_SPACE_LANGS = new Set(['jpn', 'chi_sim', 'chi_tra']);

/**
 * The text tesseract reads in `png` (PNG bytes, or a path to an image file). `lang` is one or more
 * tesseract languages joined by '+' ('eng', 'jpn+eng'); `psm` its page segmentation mode (6: one
 * uniform block of text; 7: a single line). One OCR thread (OMP_THREAD_LIMIT=1): the tests run
 * several at once, and tesseract's own threads only contend with them.
 */
export function ocr(png: Buffer | string, lang: string, psm = 6): Promise<string> {
  const input = typeof png === 'string' ? png : 'stdin';
  const args = [input, 'stdout', '-l', lang, '--psm', String(psm)];
  if (lang.split('+').some((l) => NO_SPACE_LANGS.has(l))) args.push('-c', 'preserve_interword_spaces=1');
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', args, {
      stdio: [typeof png === 'string' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.once('error', (e) => reject(new Error(`tesseract could not be started (apt install tesseract-ocr): ${e}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8').trim());
      else reject(new Error(`tesseract ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${err.trim()}`));
    });
    if (typeof png !== 'string') {
      child.stdin!.on('error', () => {}); // tesseract exiting early: its exit status says why
      child.stdin!.end(png);
    }
  });
}

/**
 * Text as the similarity compares it: a list of code points.
 *
 * NFKC rather than NFC: compatibility variants are the same text drawn the same way, and OCR and
 * shaping produce them freely: tesseract writes fullwidth punctuation for CJK (，！？ for , ! ?),
 * may write a ligature (ﬁ) where a font draws one, and an Arabic renderer's presentation forms
 * (U+FB50–U+FEFF) are the base letters once normalised. NFKC also composes (é as one code point
 * whether written precomposed or as e + U+0301), as NFC does.
 *
 * All whitespace goes: OCR's spacing and line breaks are unreliable (a wrapped line is a newline,
 * or not), and CJK has no spaces to get right. So do format characters (\p{Cf}: the bidi marks
 * LRM/RLM tesseract may put around right-to-left text, zero-width joiners): they are invisible.
 */
export function normalizeForOcr(s: string): string[] {
  return Array.from(s.normalize('NFKC').replace(/[\s\p{Cf}]+/gu, ''));
}

/** Levenshtein distance between two code-point lists (insertions, deletions, substitutions cost 1). */
export function levenshtein(a: readonly string[], b: readonly string[]): number {
  if (a.length < b.length) [a, b] = [b, a];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * How close OCR's `got` is to `expected`, from 0 to 1: 1 - Levenshtein / the longer length, over
 * Unicode code points (a surrogate pair is one character) after `normalizeForOcr`. Two empty texts
 * are identical (1). Reading only half a sentence scores at most about 0.5, whatever else was read.
 */
export function similarity(expected: string, got: string): number {
  const a = normalizeForOcr(expected);
  const b = normalizeForOcr(got);
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
}

interface VideoGeometry {
  width: number;
  height: number;
  fps: number;
}

const geometries = new Map<string, Promise<VideoGeometry>>();

/** Width, height and frame rate of a file's video stream (probed once per file). */
function videoGeometry(mp4: string): Promise<VideoGeometry> {
  let g = geometries.get(mp4);
  if (!g) {
    g = probe(mp4).then((p) => {
      const v = p.streams.find((s) => s.codec_type === 'video');
      if (!v?.width || !v.height || !v.r_frame_rate) throw new Error(`${mp4}: no video stream`);
      const [num, den] = v.r_frame_rate.split('/').map(Number);
      return { width: v.width, height: v.height, fps: num! / (den || 1) };
    });
    geometries.set(mp4, g);
    g.catch(() => geometries.delete(mp4));
  }
  return g;
}

/**
 * The frame shown at `sec` seconds (frame floor(sec * fps), selected by number, so exact) as a PNG.
 * Decoded by test/worker/media.ts's frameRgb (BT.709, as the renderer tags its files).
 */
export async function frameAt(mp4: string, sec: number): Promise<Buffer> {
  const { width, height, fps } = await videoGeometry(mp4);
  // Float noise (0.3 * 10 = 2.9999999999999996) must not move the frame back by one.
  const n = Math.floor(Math.round(sec * fps * 1e6) / 1e6);
  const rgb = await frameRgb(mp4, n);
  if (rgb.length !== width * height * 3) throw new Error(`${mp4}: no frame ${n} (${sec} s)`);
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export interface OcrPrepareOptions {
  /** Crop to this rectangle (in the frame's pixels) first. */
  crop?: { left: number; top: number; width: number; height: number };
  /** Invert: light text on a dark background becomes dark on light, which tesseract reads best. */
  negate?: boolean;
  /**
   * Cut the picture down to what differs from its corner pixel (the text), with a white margin of
   * 24 px, so it must be dark on light by then (negate first otherwise): tesseract's page layout
   * analysis can lose a small line of text in a large empty frame. A blank picture stays whole.
   */
  trim?: boolean;
  /** Upscale factor (Lanczos), after trimming; 2 helps tesseract with text under about 50 px. Default 1. */
  scale?: number;
}

/**
 * A frame made ready for OCR, as a PNG: cropped, grayscale, optionally negated, trimmed and
 * upscaled. Each step is its own sharp pipeline: one pipeline applies its operations in sharp's
 * fixed order (trim before resize, extend after it), not in the order they are called.
 */
export async function prepareForOcr(png: Buffer, opts: OcrPrepareOptions = {}): Promise<Buffer> {
  let img = sharp(png);
  if (opts.crop) img = img.extract(opts.crop);
  img = img.grayscale();
  if (opts.negate) img = img.negate({ alpha: false });
  let out = await img.png().toBuffer();
  if (opts.trim) {
    const margin = 24;
    const trimmed = await sharp(out).trim({ threshold: 40 }).png().toBuffer();
    out = await sharp(trimmed)
      .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#ffffff' })
      .png()
      .toBuffer();
  }
  const scale = opts.scale ?? 1;
  if (scale !== 1) {
    const { width, height } = await sharp(out).metadata();
    out = await sharp(out)
      .resize(Math.round(width! * scale), Math.round(height! * scale), { kernel: 'lanczos3' })
      .png()
      .toBuffer();
  }
  return out;
}
