/**
 * Line breaking, pure: words are kept whole and wrapped at `maxWidth`; "\n" forces a break. A
 * word wider than `maxWidth` sits alone on its line rather than being cut.
 */
export function wrapLines(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    const words = paragraph.split(/[ \t]+/).filter((w) => w.length > 0);
    if (words.length === 0) {
      out.push('');
      continue;
    }
    let line = words[0]!;
    for (const word of words.slice(1)) {
      const candidate = `${line} ${word}`;
      if (measure(candidate) <= maxWidth) line = candidate;
      else {
        out.push(line);
        line = word;
      }
    }
    out.push(line);
  }
  return out;
}

/** Horizontal start of a line of `lineWidth` inside a block of `blockWidth`. */
export function alignOffset(align: 'left' | 'center' | 'right', blockWidth: number, lineWidth: number): number {
  if (align === 'left') return 0;
  if (align === 'right') return blockWidth - lineWidth;
  return (blockWidth - lineWidth) / 2;
}
