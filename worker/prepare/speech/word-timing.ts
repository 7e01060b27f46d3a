/** A spoken word with its time inside its clip. */
export interface TimedWord {
  text: string;
  startSec: number;
  endSec: number;
  /** Written with no space before the next word (a piece of a run of Chinese or Japanese). */
  joinsNext?: boolean | undefined;
}

/** Scripts written without spaces between words: a run of them is one whitespace token. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** A word event of the synthesiser: 1-based character position, length, audio time in ms. */
export interface WordEvent {
  textPosition: number;
  length: number;
  ms: number;
}

/**
 * Turns the synthesiser's word events into caption words, pure. Words are the text's own
 * whitespace-separated tokens (so punctuation stays attached as written); each starts at the
 * event that falls inside it and ends where the next starts. A token the engine did not time
 * (a lone dash, say) joins the word before it rather than getting an invented time.
 */
export function timeWords(text: string, events: WordEvent[], clipSec: number): TimedWord[] {
  const tokens: { text: string; start: number; end: number; joinsNext?: boolean }[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const start = m.index;
    const end = start + m[0].length;
    // A run of Chinese (or another unspaced script) that the synthesiser timed in several places
    // is cut at those places, each piece a word of its own that joins the next without a space.
    const cuts = UNSPACED.test(m[0])
      ? [...new Set(events.map((e) => e.textPosition - 1).filter((p) => p > start && p < end))].sort((a, b) => a - b)
      : [];
    let from = start;
    for (const cut of cuts) {
      tokens.push({ text: text.slice(from, cut), start: from, end: cut, joinsNext: true });
      from = cut;
    }
    tokens.push({ text: text.slice(from, end), start: from, end });
  }
  const startMs = new Array<number | undefined>(tokens.length);
  for (const e of [...events].sort((a, b) => a.ms - b.ms)) {
    const pos = e.textPosition - 1;
    let i = tokens.findIndex((t) => pos >= t.start && pos < t.end);
    if (i < 0) i = tokens.findIndex((t) => t.start >= pos);
    if (i >= 0 && startMs[i] === undefined) startMs[i] = e.ms;
  }
  const words: { text: string; startSec: number; joinsNext?: boolean }[] = [];
  tokens.forEach((t, i) => {
    const ms = startMs[i];
    if (ms === undefined) {
      const prev = words[words.length - 1];
      if (prev) {
        prev.text += `${tokens[i - 1]?.joinsNext ? '' : ' '}${t.text}`;
        prev.joinsNext = t.joinsNext;
      }
      return;
    }
    words.push({ text: t.text, startSec: ms / 1000, ...(t.joinsNext ? { joinsNext: true } : {}) });
  });
  // Untimed tokens before the first timed word are shown with it.
  const firstTimed = startMs.findIndex((v) => v !== undefined);
  if (firstTimed > 0 && words[0]) {
    words[0].text = `${tokens
      .slice(0, firstTimed)
      .map((t) => t.text)
      .join(' ')} ${words[0].text}`;
  }
  return words.map((w, i) => ({
    text: w.text,
    startSec: w.startSec,
    endSec: Math.max(w.startSec, words[i + 1]?.startSec ?? clipSec),
    ...(w.joinsNext ? { joinsNext: true } : {}),
  }));
}
