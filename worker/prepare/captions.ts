import type { TimedWord } from './speech/word-timing.ts';

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
