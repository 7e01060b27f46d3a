/**
 * `{{name}}` placeholders in string values. `{{{{name}}}}` is the escape for a literal `{{name}}`
 * and is not a reference. Text between braces that is not a variable name stays literal. Names
 * are at most 64 characters (as declarations are), optionally padded with spaces: `{{ name }}`.
 *
 * A hand-written scanner rather than a global regex: templates of thousands of strings are scanned
 * on every render request, and this is several times faster than `matchAll`.
 */

export interface Token {
  start: number;
  end: number;
  /** The variable name (for an escape: the text between the inner braces, kept verbatim). */
  name: string;
  escape: boolean;
}

export interface PlaceholderScan {
  /** Referenced names in order of appearance (repeats kept). */
  refs: string[];
  /** The name when the whole string is one placeholder: it takes the variable's typed value. */
  whole: string | undefined;
  tokens: Token[];
}

const MAX_NAME = 64;

const isStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95; // A-Z a-z _
const isPart = (c: number) => isStart(c) || (c >= 48 && c <= 57);
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;

/** Matches `{{ name }}` with `open` braces each side at `i`; returns [end, nameStart, nameEnd] or undefined. */
function matchAt(s: string, i: number, braces: number): [number, number, number] | undefined {
  let p = i + braces;
  while (p < s.length && isSpace(s.charCodeAt(p))) p++;
  const nameStart = p;
  if (p >= s.length || !isStart(s.charCodeAt(p))) return undefined;
  p++;
  while (p < s.length && isPart(s.charCodeAt(p))) p++;
  const nameEnd = p;
  if (nameEnd - nameStart > MAX_NAME) return undefined;
  while (p < s.length && isSpace(s.charCodeAt(p))) p++;
  for (let b = 0; b < braces; b++, p++) if (s.charCodeAt(p) !== 125) return undefined; // }
  return [p, nameStart, nameEnd];
}

function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  let i = s.indexOf('{{');
  while (i !== -1) {
    // An escape is tried first, as `{{{{name}}}}` also contains `{{name}}`.
    const esc = s.startsWith('{{{{', i) ? matchAt(s, i, 4) : undefined;
    if (esc) {
      tokens.push({ start: i, end: esc[0], name: s.slice(i + 4, esc[0] - 4), escape: true });
      i = s.indexOf('{{', esc[0]);
      continue;
    }
    const ref = matchAt(s, i, 2);
    if (ref) {
      tokens.push({ start: i, end: ref[0], name: s.slice(ref[1], ref[2]), escape: false });
      i = s.indexOf('{{', ref[0]);
      continue;
    }
    i = s.indexOf('{{', i + 1);
  }
  return tokens;
}

/** Scans a string; undefined when it has neither references nor escapes (nothing to resolve). */
export function scanPlaceholders(s: string): PlaceholderScan | undefined {
  if (!s.includes('{{')) return undefined;
  const tokens = tokenize(s);
  if (tokens.length === 0) return undefined;
  const refs: string[] = [];
  for (const t of tokens) if (!t.escape) refs.push(t.name);
  const only = tokens.length === 1 ? tokens[0]! : undefined;
  const whole = only && !only.escape && only.start === 0 && only.end === s.length ? only.name : undefined;
  return { refs, whole, tokens };
}

/** Interpolates references with `lookup` and turns escapes into literal `{{name}}`. */
export function interpolate(s: string, lookup: (name: string) => string, tokens: Token[] = tokenize(s)): string {
  let out = '';
  let at = 0;
  for (const t of tokens) {
    out += s.slice(at, t.start) + (t.escape ? `{{${t.name}}}` : lookup(t.name));
    at = t.end;
  }
  return out + s.slice(at);
}
