/**
 * The three entry points: validateMovie (a finished document), validateTemplate (placeholders
 * allowed) and resolveMovie (template check, variable resolution, full check of the result).
 * None of them throws on any JSON value; problems come back as findings in document order.
 */
import type { Finding } from '../lib/errors.ts';
import { describe, isPlainObject } from './describe.ts';
import { comparePositions, documentPosition, formatPath, type Segment } from './paths.ts';
import { expansionFindings, resolveValues, substitute } from './resolution.ts';
import type { Result } from './result.ts';
import type { MovieV1 } from './v1/schema.ts';
import type { VariableDecl } from './variables.ts';
import { SCHEMA_VERSIONS, schemaVersion } from './versions.ts';
import { newContext, type RawFinding, type WalkContext } from './walk/context.ts';

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
 * scalar position; the manifest mirrors `variables`. Unused variables are warnings (and, through
 * checkTemplateDocument, characters no font draws).
 */
export function validateTemplate(doc: unknown): Result<{ manifest: Record<string, VariableDecl> }> {
  const { walked, decls } = templateWalk(doc);
  if (!walked.ok) return walked;
  if (walked.ctx.findings.length > 0) return { ok: false, findings: finish(doc, walked.ctx.findings) };
  const manifest: Record<string, VariableDecl> = {};
  for (const [name, decl] of decls) manifest[name] = { ...decl };
  return { ok: true, value: { manifest }, warnings: unusedWarnings(decls, walked.ctx.refs) };
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
  if (problems.length === 0) problems.push(...expansionFindings(ctx.sites, resolved.values));
  if (problems.length > 0) return { ok: false, findings: finish(doc, problems) };
  const warnings = unusedWarnings(decls, ctx.refs);
  // Without placeholders or escapes the template walk was already the full check.
  if (ctx.sites.length === 0) return { ok: true, value: doc as Movie, warnings };
  const out = substitute(doc as Record<string, unknown>, ctx.sites, resolved.values);
  const full = validateMovie(out);
  return full.ok ? { ok: true, value: full.value, warnings } : full;
}
