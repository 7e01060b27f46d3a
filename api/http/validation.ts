import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { Finding } from '../../lib/errors.ts';
import { formatPath, pointerSegments, type Segment } from '../../movie/paths.ts';

// ajv-formats is CommonJS; under ESM its function sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    // Every finding at once (spec rule); unknown keys are findings, never silently dropped.
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

// Query strings are text, so numbers there are coerced; bodies are JSON and must be typed right.
const queryAjv = makeAjv(true);
const bodyAjv = makeAjv(false);

/** The first query field (key or value) holding U+0000, which PostgreSQL text cannot store. */
function nulInQuery(query: unknown): string | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  for (const [key, value] of Object.entries(query)) {
    if (key.includes('\u0000')) return key;
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.includes('\u0000'))) return key;
  }
  return undefined;
}

/**
 * The data each failed validation saw, by error: a JSON Pointer alone cannot tell the index 2 from
 * the key "2", the data can (movie/paths.ts pointerSegments).
 */
const validated = new WeakMap<ErrorObject, unknown>();

/**
 * A validator that remembers what it validated for its errors' paths; for query strings it also
 * refuses `%00` (JSON bodies get the same check in the JSON parser). A percent-decoded query holds
 * no lone surrogate: undecodable escapes stay as text.
 */
function withPaths(validate: ValidateFunction, nulCheck: boolean): ValidateFunction {
  const guarded = ((data: unknown) => {
    const key = nulCheck ? nulInQuery(data) : undefined;
    if (key !== undefined) {
      const error: ErrorObject = {
        instancePath: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        schemaPath: '',
        keyword: 'nul',
        params: {},
        message: 'must not contain the NUL character (%00)',
      };
      guarded.errors = [error];
      validated.set(error, data);
      return false;
    }
    const ok = validate(data);
    guarded.errors = validate.errors;
    if (!ok) for (const e of validate.errors ?? []) validated.set(e, data);
    return ok;
  }) as ValidateFunction;
  return guarded;
}

/** Fastify's validator compiler: coercing for query strings and params, strict for bodies. */
export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  const validate = ajv.compile(schema as object) as ValidateFunction;
  return withPaths(validate, httpPart === 'querystring');
};

/**
 * Where an ajv error is, in the spec's path form (movie/paths.ts formatPath), relative to the body,
 * the query string or the path parameters; a header is its HTTP name, and its finding's path
 * `headers.<name>` (as docs/api.md writes them). `name` is what the message calls the field.
 */
function located(segments: Segment[], context: string | undefined): { name: string; path: string } {
  if (context !== 'headers') {
    const path = formatPath(segments);
    return { name: path, path };
  }
  const name = segments.join('.');
  return { name, path: `headers.${name}` };
}

/**
 * ajv errors as VALIDATION_ERROR findings with exact paths and messages that name the field.
 * `context` is Fastify's validationContext (body, querystring, params, headers).
 */
export function ajvFindings(errors: ErrorObject[], context?: string): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const segments = pointerSegments(e.instancePath, validated.get(e));
    const at =
      e.keyword === 'required'
        ? located([...segments, String(e.params.missingProperty)], context)
        : e.keyword === 'additionalProperties'
          ? located([...segments, String(e.params.additionalProperty)], context)
          : located(segments, context);
    const { path } = at;
    let message: string;
    if (e.keyword === 'required') message = `${at.name} is required.`;
    else if (e.keyword === 'additionalProperties') message = `${at.name} is not a known field; remove it.`;
    else {
      const where = at.name === '' ? 'The request body' : at.name;
      message = `${where} ${e.message ?? 'is invalid'}.`;
      if (e.keyword === 'enum')
        message = `${where} must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}.`;
    }
    // anyOf/union branches repeat the same field; one finding per path and message is enough.
    const id = `${path}\u0000${message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    findings.push({ code: 'VALIDATION_ERROR', message, path });
  }
  return findings;
}
