import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { Finding } from '../../lib/errors.ts';

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
 * A query string validator that also refuses `%00` (JSON bodies get the same check in the JSON
 * parser). A percent-decoded query holds no lone surrogate: undecodable escapes stay as text.
 */
function withNulCheck(validate: ValidateFunction): ValidateFunction {
  const guarded = ((data: unknown) => {
    const key = nulInQuery(data);
    if (key !== undefined) {
      const error: ErrorObject = {
        instancePath: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        schemaPath: '',
        keyword: 'nul',
        params: {},
        message: 'must not contain the NUL character (%00)',
      };
      guarded.errors = [error];
      return false;
    }
    const ok = validate(data);
    guarded.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  return guarded;
}

/** Fastify's validator compiler: coercing for query strings and params, strict for bodies. */
export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  const validate = ajv.compile(schema as object) as ValidateFunction;
  return httpPart === 'querystring' ? withNulCheck(validate) : validate;
};

/** A JSON pointer (`/movie/scenes/2/id`) in the spec's path form (`movie.scenes[2].id`). */
export function pointerToPath(pointer: string): string {
  if (pointer === '' || pointer === '/') return '';
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

function join(base: string, name: string): string {
  return base === '' ? name : `${base}.${name}`;
}

/** ajv errors as VALIDATION_ERROR findings with exact paths and messages that name the field. */
export function ajvFindings(errors: ErrorObject[]): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let path = pointerToPath(e.instancePath);
    let message: string;
    if (e.keyword === 'required') {
      path = join(path, String(e.params.missingProperty));
      message = `${path} is required.`;
    } else if (e.keyword === 'additionalProperties') {
      path = join(path, String(e.params.additionalProperty));
      message = `${path} is not a known field; remove it.`;
    } else {
      const where = path === '' ? 'The request body' : path;
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
