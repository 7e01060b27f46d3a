/**
 * Variable values and lossless coercion. A value is accepted only when converting it to the
 * declared type loses nothing: "42" is a number, "4x" is not; "true"/"false" are booleans.
 */
import { isColor } from './colors.ts';
import { describe } from './describe.ts';

export type VariableType = 'string' | 'number' | 'boolean' | 'url' | 'color' | 'enum';

export interface VariableDecl {
  type: VariableType;
  default?: unknown;
  description?: string;
  options?: string[];
}

export type VariableValue = string | number | boolean;

export const VARIABLE_TYPES: readonly VariableType[] = ['string', 'number', 'boolean', 'url', 'color', 'enum'];

/** Longest string a variable value may have (the longest text a document allows). */
const MAX_VALUE_LENGTH = 5000;
const MAX_URL_LENGTH = 2048;
// JSON's number grammar: no hex, no leading zeros, no "Infinity", no surrounding spaces.
const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

export type Coerced = { ok: true; value: VariableValue } | { ok: false; message: string };

const fail = (message: string): Coerced => ({ ok: false, message });

export function isAbsoluteHttpUrl(s: string): boolean {
  if (s.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(s)) return false;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** Converts `raw` to the declared type, or says why it cannot be converted losslessly. */
export function coerceVariable(decl: { type: VariableType; options?: readonly string[] }, raw: unknown): Coerced {
  const shown = describe(raw);
  switch (decl.type) {
    case 'string': {
      if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: String(raw) };
      if (typeof raw === 'boolean') return { ok: true, value: String(raw) };
      if (typeof raw !== 'string') return fail(`expected a string; got ${shown}`);
      if (raw.length > MAX_VALUE_LENGTH)
        return fail(`a string value may have at most ${MAX_VALUE_LENGTH} characters; got ${raw.length}`);
      return { ok: true, value: raw };
    }
    case 'number': {
      if (typeof raw === 'number')
        return Number.isFinite(raw) ? { ok: true, value: raw } : fail('expected a finite number');
      if (typeof raw === 'string' && raw.length <= 64 && DECIMAL.test(raw)) {
        const n = Number(raw);
        if (Number.isFinite(n)) return { ok: true, value: n };
      }
      return fail(`expected a number (or a string holding exactly a number, like "42"); got ${shown}`);
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 'true' || raw === 'false') return { ok: true, value: raw === 'true' };
      return fail(`expected a boolean (true, false, "true" or "false"); got ${shown}`);
    }
    case 'url': {
      if (typeof raw === 'string' && isAbsoluteHttpUrl(raw)) return { ok: true, value: raw };
      return fail(`expected an absolute http(s) URL of at most ${MAX_URL_LENGTH} characters; got ${shown}`);
    }
    case 'color': {
      if (typeof raw === 'string' && isColor(raw)) return { ok: true, value: raw };
      return fail(`expected a colour (#rgb, #rrggbb, #rrggbbaa or a lower-case CSS named colour); got ${shown}`);
    }
    case 'enum': {
      const options = decl.options ?? [];
      const s =
        typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
      if (s !== undefined && options.includes(s)) return { ok: true, value: s };
      const list = options
        .slice(0, 20)
        .map((o) => JSON.stringify(o))
        .join(', ');
      return fail(`expected one of ${list}${options.length > 20 ? ', …' : ''}; got ${shown}`);
    }
    default:
      return fail(`unknown variable type ${describe(decl.type)}`);
  }
}
