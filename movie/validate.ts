/**
 * The three entry points: validateMovie (a finished document), validateTemplate (placeholders
 * allowed) and resolveMovie (template check, variable resolution, full check of the result).
 * None of them throws on any JSON value; problems come back as findings in document order.
 */
import type { Finding } from '../lib/errors.ts';
import { describe, isPlainObject } from './describe.ts';
import { comparePositions, documentPosition, formatPath, type Segment } from './paths.ts';
import { interpolate } from './placeholders.ts';
import type { Result } from './result.ts';
import type { MovieV1 } from './v1/schema.ts';
import { coerceVariable, type VariableDecl, type VariableValue } from './variables.ts';
import { SCHEMA_VERSIONS, schemaVersion } from './versions.ts';
import { newContext, type RawFinding, type Site, type WalkContext } from './walk/context.ts';

export type Movie = MovieV1;

/** At most this many findings are reported, so a hostile document cannot make a giant response. */
export const MAX_FINDINGS = 100;

function finish(root: unknown, raw: RawFinding[]): Finding[] {
  const cache = new Map<object, Map<string, number>>();
  const keyed = raw.map((f, i) => ({ f, i, pos: documentPosition(root, f.segments, cache) }));
  keyed.sort((a, b) => comparePositions(a.pos, b.pos) || a.i - b.i);
  return keyed
    .slice(0, MAX_FINDINGS)
    .map(({ f }) => ({ code: f.code, message: f.message, path: formatPath(f.segments) }));
}

type Walked = { ok: true; ctx: WalkContext } | { ok: false; findings: Finding[] };

function walk(doc: unknown, template: boolean): Walked {
  if (!isPlainObject(doc))
    return fail([
      { code: 'SCHEMA_INVALID', message: `a movie document must be a JSON object; got ${describe(doc)}`, path: '' },
    ]);
  const tag = doc.schema;
  if (tag === undefined || !Object.hasOwn(doc, 'schema'))
    return fail([
      { code: 'SCHEMA_INVALID', message: `the document is missing required field "schema" (use "v1")`, path: 'schema' },
    ]);
  if (typeof tag !== 'string')
    return fail([
      {
        code: 'SCHEMA_INVALID',
        message: `schema must be a version tag such as "v1"; got ${describe(tag)}`,
        path: 'schema',
      },
    ]);
  const version = schemaVersion(tag);
  // Under an unknown version nothing else can be judged: the tag decides what every field means.
  if (!version)
    return fail([
      {
        code: 'UNSUPPORTED_SCHEMA_VERSION',
        message: `schema ${describe(tag)} is not a supported version; supported: ${SCHEMA_VERSIONS.join(', ')}`,
        path: 'schema',
      },
    ]);
  const ctx = newContext(template);
  (template ? version.templateCheck : version.check)(doc, ctx);
  return { ok: true, ctx };
}

const fail = (findings: Finding[]): Walked => ({ ok: false, findings });

/** Full check of a finished document: placeholders are plain text here (worker input). */
export function validateMovie(doc: unknown): Result<Movie> {
  const walked = walk(doc, false);
  if (!walked.ok) return walked;
  if (walked.ctx.findings.length > 0) return { ok: false, findings: finish(doc, walked.ctx.findings) };
  return { ok: true, value: doc as Movie, warnings: [] };
}

function declarations(doc: unknown): Map<string, VariableDecl> {
  const out = new Map<string, VariableDecl>();
  const vars = isPlainObject(doc) ? doc.variables : undefined;
  if (!isPlainObject(vars)) return out;
  for (const [name, decl] of Object.entries(vars))
    if (isPlainObject(decl)) out.set(name, decl as unknown as VariableDecl);
  return out;
}

/** Template walk plus VARIABLE_UNDECLARED at each undeclared name's first reference. */
function templateWalk(doc: unknown): { walked: Walked; decls: Map<string, VariableDecl> } {
  const walked = walk(doc, true);
  const decls = declarations(doc);
  if (walked.ok) {
    for (const [name, first] of walked.ctx.refs) {
      if (!decls.has(name))
        walked.ctx.findings.push({
          code: 'VARIABLE_UNDECLARED',
          message: `{{${name}}} refers to a variable that is not declared; declare variables.${name} or write {{{{${name}}}}} for literal braces`,
          segments: first,
        });
    }
  }
  return { walked, decls };
}

function unusedWarnings(decls: Map<string, VariableDecl>, refs: Map<string, Segment[]>): Finding[] {
  const out: Finding[] = [];
  for (const name of decls.keys()) {
    if (!refs.has(name))
      out.push({
        code: 'VARIABLE_UNUSED',
        message: `variable "${name}" is declared but no {{${name}}} placeholder uses it`,
        path: formatPath(['variables', name]),
      });
  }
  return out;
}

/**
 * Template mode (POST/PUT /templates): structural check with {{placeholders}} allowed in any
 * scalar position; the manifest mirrors `variables`. Unused variables are warnings.
 */
export function validateTemplate(doc: unknown): Result<{ manifest: Record<string, VariableDecl> }> {
  const { walked, decls } = templateWalk(doc);
  if (!walked.ok) return walked;
  if (walked.ctx.findings.length > 0) return { ok: false, findings: finish(doc, walked.ctx.findings) };
  const manifest: Record<string, VariableDecl> = {};
  for (const [name, decl] of decls) manifest[name] = { ...decl };
  return { ok: true, value: { manifest }, warnings: unusedWarnings(decls, walked.ctx.refs) };
}

/** The typed value of every referenced variable, or the findings that prevent it. */
function resolveValues(
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
function substitute(doc: Record<string, unknown>, sites: Site[], values: Map<string, VariableValue>): unknown {
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

/**
 * Resolves a document's variables with request `values` (else declared defaults) and fully
 * validates the result. A document without placeholders resolves to itself.
 */
export function resolveMovie(doc: unknown, values?: unknown): Result<Movie> {
  const { walked, decls } = templateWalk(doc);
  if (!walked.ok) return walked;
  const { ctx } = walked;
  const resolved = resolveValues(decls, ctx.refs, values);
  const problems = [...ctx.findings, ...resolved.findings];
  if (problems.length > 0) return { ok: false, findings: finish(doc, problems) };
  const warnings = unusedWarnings(decls, ctx.refs);
  // Without placeholders or escapes the template walk was already the full check.
  if (ctx.sites.length === 0) return { ok: true, value: doc as Movie, warnings };
  const out = substitute(doc as Record<string, unknown>, ctx.sites, resolved.values);
  const full = validateMovie(out);
  return full.ok ? { ok: true, value: full.value, warnings } : full;
}
