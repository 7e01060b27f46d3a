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
  for (const seg of segmenter(locale).segment(text.normalize('NFKC'))) {
    if (!seg.isWordLike) continue;
    const w = seg.segment.toLocaleLowerCase().replace(/['\u2019]/g, '');
    if (w !== '') out.push(w);
  }
  return out;
}

export function countWords(text: string, locale?: string): number {
  return words(text, locale).length;
}
