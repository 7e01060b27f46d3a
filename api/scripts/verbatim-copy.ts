import { words } from './words.ts';

/** A draft may not repeat this many consecutive words of sourceMaterial (issue 6: "12 or more"). */
export const VERBATIM_RUN_WORDS = 12;

export interface VerbatimRun {
  /** Length of the copied run in words (at least the index's run length). */
  words: number;
  /** The copied words, normalised, for the re-prompt and the error message. */
  excerpt: string;
}

export interface SourceIndex {
  readonly run: number;
  readonly sourceWords: string[];
  /** Every `run`-word window of the source, joined by spaces -> its start positions. */
  readonly grams: Map<string, number[]>;
}

/** Indexes the source once per request; each draft field is then checked in linear time. */
export function indexSource(source: string, run: number = VERBATIM_RUN_WORDS, locale?: string): SourceIndex {
  const sourceWords = words(source, locale);
  const grams = new Map<string, number[]>();
  for (let i = 0; i + run <= sourceWords.length; i++) {
    const key = sourceWords.slice(i, i + run).join(' ');
    const at = grams.get(key);
    if (at) at.push(i);
    else grams.set(key, [i]);
  }
  return { run, sourceWords, grams };
}

/**
 * The longest run of `index.run` or more consecutive source words that `text` repeats, after
 * normalising case and punctuation; null when there is none.
 */
export function findVerbatimRun(index: SourceIndex, text: string, locale?: string): VerbatimRun | null {
  return findVerbatimRunInWords(index, words(text, locale));
}

/** As findVerbatimRun, for text already split by `words()` (the checker splits each scene once). */
export function findVerbatimRunInWords(index: SourceIndex, tw: readonly string[]): VerbatimRun | null {
  let best: { start: number; length: number } | null = null;
  for (let i = 0; i + index.run <= tw.length; i++) {
    const starts = index.grams.get(tw.slice(i, i + index.run).join(' '));
    if (!starts) continue;
    for (const s of starts) {
      let n = index.run;
      while (i + n < tw.length && s + n < index.sourceWords.length && tw[i + n] === index.sourceWords[s + n]) n++;
      if (!best || n > best.length) best = { start: i, length: n };
    }
  }
  if (!best) return null;
  return { words: best.length, excerpt: tw.slice(best.start, best.start + best.length).join(' ') };
}
