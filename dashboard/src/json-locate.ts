/**
 * Where each value of a JSON text is, by its path in the API's form (`scenes[2].elements[0].src`,
 * made by the movie library's own formatPath), so a finding's path can point at its line in the
 * editor. A small scanner over text that JSON.parse has already accepted.
 */
import { formatPath, type Segment } from '../../movie/paths.ts';

export interface Span {
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
}

export function locateAll(text: string): Map<string, Span> {
  const spans = new Map<string, Span>();
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: Segment[]): void => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') i++;
      else
        for (;;) {
          ws();
          const key = str();
          ws();
          i++; // colon
          value([...path, key]);
          ws();
          if (text[i++] === '}') break;
        }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') i++;
      else
        for (let n = 0; ; n++) {
          value([...path, n]);
          ws();
          if (text[i++] === ']') break;
        }
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
    }
    spans.set(formatPath(path), { start, end: i, line: lineOf(text, start) });
  };
  value([]);
  return spans;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}

/**
 * The span of `path`, or of its nearest ancestor present in the text (a finding about a missing
 * field points at the object that lacks it).
 */
export function locate(spans: Map<string, Span>, path: string): Span | undefined {
  for (let p = path; ; ) {
    const hit = spans.get(p);
    if (hit) return hit;
    if (p === '') return undefined;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    p = cut <= 0 ? '' : p.slice(0, cut);
  }
}

/**
 * The line of a JSON.parse error, read from its message: V8 says "... at position 12 (line 3
 * column 1)" (older versions only the position); other engines, or some errors, say neither.
 */
export function syntaxErrorLine(text: string, err: unknown): number | undefined {
  const message = String(err instanceof Error ? err.message : err);
  const line = /\(line (\d+) column \d+\)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  return position ? lineOf(text, Number(position[1])) : undefined;
}
