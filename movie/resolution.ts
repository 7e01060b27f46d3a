/**
 * Variable resolution: the typed value of each referenced variable (request value, else default,
 * coerced losslessly), and substitution of those values into a copy of the document.
 */
import { describe, isPlainObject } from './describe.ts';
import type { Segment } from './paths.ts';
import { interpolate } from './placeholders.ts';
import { LIMITS } from './v1/schema.ts';
import { coerceVariable, type VariableDecl, type VariableValue } from './variables.ts';
import type { RawFinding, Site } from './walk/context.ts';

/**
 * How long substitution may make strings: one field at most as long as the longest string any
 * field takes (a data: URI), and all of them together at most EXPANDED_TOTAL characters. A
 * placeholder repeated in a field multiplies its value's length; past these the finding is
 * reported before any string is built (a request of half a megabyte could otherwise ask for a
 * string of half a billion characters).
 */
const EXPANDED_FIELD = LIMITS.dataUriLength;
const EXPANDED_TOTAL = 4_000_000;

/** VALIDATION_ERROR at each field whose substituted text would be too long, measured, not built. */
export function expansionFindings(sites: Site[], values: Map<string, VariableValue>): RawFinding[] {
  const findings: RawFinding[] = [];
  let total = 0;
  for (const site of sites) {
    if (site.scan.whole !== undefined) {
      const v = values.get(site.scan.whole);
      total += typeof v === 'string' ? v.length : 0;
      continue;
    }
    let length = site.raw.length;
    for (const t of site.scan.tokens) {
      const value = values.get(t.name);
      length += (t.escape ? t.name.length + 4 : value === undefined ? 0 : String(value).length) - (t.end - t.start);
    }
    total += length;
    if (length > EXPANDED_FIELD)
      findings.push({
        code: 'VALIDATION_ERROR',
        message: `the placeholders expand this field to ${length} characters; no field takes more than ${EXPANDED_FIELD}`,
        segments: site.segments,
      });
    else if (total > EXPANDED_TOTAL) {
      findings.push({
        code: 'VALIDATION_ERROR',
        message: `the placeholders expand the document's fields to more than ${EXPANDED_TOTAL} characters in all (this field passes the limit)`,
        segments: site.segments,
      });
      break;
    }
  }
  return findings;
}

/** The typed value of every referenced variable, or the findings that prevent it. */
export function resolveValues(
  decls: Map<string, VariableDecl>,
  refs: Map<string, Segment[]>,
  values: unknown,
): { values: Map<string, VariableValue>; findings: RawFinding[] } {
  const findings: RawFinding[] = [];
  const out = new Map<string, VariableValue>();
  let given: Record<string, unknown> = {};
  if (values !== undefined && values !== null) {
    if (isPlainObject(values)) given = values;
    else
      findings.push({
        code: 'VALIDATION_ERROR',
        message: `variables must be an object of values keyed by variable name; got ${describe(values)}`,
        segments: ['variables'],
      });
  }
  for (const name of Object.keys(given)) {
    // A typo in a value's name must not pass silently and render the default instead.
    if (!decls.has(name)) {
      const known = [...decls.keys()].join(', ') || 'none';
      findings.push({
        code: 'VALIDATION_ERROR',
        message: `variable "${name.slice(0, 64)}" is not declared by the document; declared: ${known}`,
        segments: ['variables', name],
      });
    }
  }
  for (const [name, decl] of decls) {
    const first = refs.get(name);
    const supplied = Object.hasOwn(given, name) && given[name] !== undefined && given[name] !== null;
    const raw = supplied ? given[name] : decl.default;
    if (raw === undefined) {
      if (first)
        findings.push({
          code: 'VARIABLE_MISSING',
          message: `variable "${name}" has no value: supply it in the request's variables or declare a default`,
          segments: first,
        });
      continue;
    }
    const coerced = coerceVariable(decl, raw);
    if (!coerced.ok) {
      findings.push({
        code: 'VARIABLE_TYPE_MISMATCH',
        message: `variable "${name}" (${decl.type}): ${coerced.message}`,
        segments: first ?? ['variables', name],
      });
      continue;
    }
    out.set(name, coerced.value);
  }
  return { values: out, findings };
}

/** Applies substitutions, copying only the containers on the way to a changed string. */
export function substitute(doc: Record<string, unknown>, sites: Site[], values: Map<string, VariableValue>): unknown {
  const root: Record<string, unknown> = { ...doc };
  const copies = new Set<object>([root]);
  for (const site of sites) {
    let node = root as Record<string | number, unknown>;
    const segs = site.segments;
    for (let i = 0; i < segs.length - 1; i++) {
      const key = segs[i]!;
      let child = node[key] as Record<string | number, unknown>;
      if (!copies.has(child)) {
        child = (Array.isArray(child) ? child.slice() : { ...child }) as Record<string | number, unknown>;
        copies.add(child);
        node[key] = child;
      }
      node = child;
    }
    const whole = site.scan.whole;
    let value: unknown;
    if (whole !== undefined) {
      const v = values.get(whole)!;
      // A typed value lands as itself where the field accepts its type, else as text ("{{n}}" in a caption).
      value = site.admits[typeof v as 'string' | 'number' | 'boolean'] || !site.admits.string ? v : String(v);
    } else {
      value = interpolate(site.raw, (name) => String(values.get(name)), site.scan.tokens);
    }
    node[segs[segs.length - 1]!] = value;
  }
  return root;
}
