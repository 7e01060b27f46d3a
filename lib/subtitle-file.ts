/**
 * SRT and WebVTT files: what a subtitles element's src holds, and what an upload of kind
 * subtitles must be (the API parses an upload as the worker will, so a bad file is refused then).
 */
import { ParseError, parseText } from 'media-captions';
import { AppError } from './errors.ts';

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
 * media-captions in strict mode. A file that is not one fails with ASSET_INVALID at `path` (a
 * document's src; none for an upload), naming the line; so does one without a single cue.
 */
export async function parseSubtitleFile(bytes: Buffer, path?: string): Promise<FileCue[]> {
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
      ...(path ? { path } : {}),
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
      path ? { path } : {},
    );
  }
  return out;
}
