import { ParseError, parseText } from 'media-captions';
import { AppError } from '../lib/errors.ts';
import type { TimedWord } from './tts/word-timing.ts';

/** A caption line: up to `wordsPerLine` consecutive words, shown from its first word's start. */
export interface CaptionCue {
  words: TimedWord[];
  startSec: number;
  endSec: number;
}

/**
 * Groups timed words (absolute seconds, any number of voice clips) into caption lines, pure.
 * A line stays up until the next line starts, or until its last word ends plus `holdSec`, and
 * a gap between clips (longer than `holdSec`) always starts a new line, and so does a word that
 * would make the line wider than the frame allows (`fits`).
 */
export function groupCaptions(
  words: TimedWord[],
  wordsPerLine: number,
  fits: (words: TimedWord[]) => boolean = () => true,
  holdSec = 0.6,
): CaptionCue[] {
  const sorted = [...words].sort((a, b) => a.startSec - b.startSec);
  const lines: TimedWord[][] = [];
  let current: TimedWord[] = [];
  for (const w of sorted) {
    const prev = current[current.length - 1];
    const full = current.length >= wordsPerLine || (current.length > 0 && !fits([...current, w]));
    if (full || (prev && w.startSec - prev.endSec > holdSec)) {
      lines.push(current);
      current = [];
    }
    current.push(w);
  }
  if (current.length > 0) lines.push(current);
  return lines.map((ws, i) => {
    const last = ws[ws.length - 1]!;
    const next = lines[i + 1]?.[0];
    const end = Math.min(last.endSec + holdSec, next ? next.startSec : Number.POSITIVE_INFINITY);
    return { words: ws, startSec: ws[0]!.startSec, endSec: Math.max(end, last.endSec) };
  });
}

/** A cue of a subtitle file: its text (lines as written, markup dropped) and its times in seconds. */
export interface FileCue {
  text: string;
  startSec: number;
  endSec: number;
}

/** VTT and SRT markup inside a cue (<i>, <b>, <v Speaker>, <c.class>, <00:01.000>, SRT's {\\an8}). */
const MARKUP = /<[^>\n]*>|\{\\[^}\n]*\}/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f' };

/**
 * Parses an SRT or WebVTT file (WebVTT when it starts with the WEBVTT signature, else SRT) with
 * media-captions in strict mode. A file that is not one fails with ASSET_INVALID at `path`,
 * naming the line; so does one without a single cue.
 */
export async function parseSubtitleFile(bytes: Buffer, path: string): Promise<FileCue[]> {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const type = /^WEBVTT(?:[ \t]|\r?\n|$)/.test(text) ? 'vtt' : 'srt';
  const name = type === 'vtt' ? 'WebVTT' : 'SRT';
  let cues: { text: string; startTime: number; endTime: number }[];
  try {
    ({ cues } = await parseText(text, { type, strict: true }));
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    const reason = err.message.replace(/ on line \d+$/, '');
    throw new AppError('ASSET_INVALID', `The ${name} file is malformed at line ${err.line}: ${reason}`, {
      path,
      cause: err,
    });
  }
  const out = cues
    .map((c) => ({
      text: c.text
        .replace(MARKUP, '')
        .replace(/&(amp|lt|gt|nbsp|lrm|rlm);/g, (_, e: string) => ENTITIES[e]!)
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .join('\n'),
      startSec: c.startTime,
      endSec: c.endTime,
    }))
    .filter((c) => c.text !== '' && c.endSec > c.startSec);
  if (cues.length === 0) {
    const lines = text.split(/\r?\n/).length;
    throw new AppError(
      'ASSET_INVALID',
      `The ${name} file has no cue in its ${lines} line(s) from line 1: expected cues such as "00:00:01,000 --> 00:00:02,500" followed by their text`,
      { path },
    );
  }
  return out;
}
