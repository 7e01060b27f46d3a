/**
 * `{{name}}` placeholders in string values. `{{{{name}}}}` is the escape for a literal `{{name}}`
 * and is not a reference. Text between braces that is not a variable name stays literal.
 */
// Names are at most 64 characters (as declarations are), which also bounds every match.
const TOKEN = /\{\{\{\{(\s*[A-Za-z_][A-Za-z0-9_]{0,63}\s*)\}\}\}\}|\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/;

export interface PlaceholderScan {
  /** Referenced names in order of appearance (repeats kept). */
  refs: string[];
  /** The name when the whole string is one placeholder: it takes the variable's typed value. */
  whole: string | undefined;
}

/** Scans a string; undefined when it has neither references nor escapes (nothing to resolve). */
export function scanPlaceholders(s: string): PlaceholderScan | undefined {
  if (!s.includes('{{')) return undefined;
  const refs: string[] = [];
  let escapes = 0;
  for (const m of s.matchAll(TOKEN)) {
    if (m[2] !== undefined) refs.push(m[2]);
    else escapes++;
  }
  if (refs.length === 0 && escapes === 0) return undefined;
  return { refs, whole: WHOLE.exec(s)?.[1] };
}

/** Interpolates references with `lookup` and turns escapes into literal `{{name}}`. */
export function interpolate(s: string, lookup: (name: string) => string): string {
  return s.replace(TOKEN, (_m, escaped: string | undefined, name: string | undefined) =>
    escaped !== undefined ? `{{${escaped}}}` : lookup(name!),
  );
}
