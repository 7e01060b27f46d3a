// One segmenter per locale: construction is the expensive part, segmentation is cheap.
const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(locale: string | undefined): Intl.Segmenter {
  const key = locale ?? 'und';
  let s = segmenters.get(key);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(key, s);
  }
  return s;
}

/**
 * The words of `text`, lower-cased and without punctuation. Uses ICU word segmentation, so
 * languages written without spaces (Japanese, Chinese, Thai) count words, not sentences.
 * Apostrophes inside a word are dropped ("Don't" and "dont" compare equal).
 */
export function words(text: string, locale?: string): string[] {
  const out: string[] = [];
  const seg = segmenter(locale);
  for (const chunk of chunks(text.normalize('NFKC'))) {
    for (const s of seg.segment(chunk)) {
      if (!s.isWordLike) continue;
      const w = s.segment.toLocaleLowerCase().replace(/['\u2019]/g, '');
      if (w !== '') out.push(w);
    }
  }
  return out;
}

// Split after whitespace and sentence punctuation (CJK included): never inside a word.
const BREAK_AFTER = /(?<=[\s\u3001\u3002\uff01\uff0c\uff0e\uff1f])/u;
const CHUNK_CHARS = 400;

/**
 * Segmenting one long string is quadratic in V8 (170 kB took 35 s), so text is segmented in
 * chunks of about CHUNK_CHARS characters cut at whitespace or sentence punctuation.
 */
function* chunks(text: string): Generator<string> {
  if (text.length <= CHUNK_CHARS) {
    yield text;
    return;
  }
  let buf = '';
  for (const piece of text.split(BREAK_AFTER)) {
    if (buf !== '' && buf.length + piece.length > CHUNK_CHARS) {
      yield buf;
      buf = '';
    }
    buf += piece;
  }
  if (buf !== '') yield buf;
}

export function countWords(text: string, locale?: string): number {
  return words(text, locale).length;
}
