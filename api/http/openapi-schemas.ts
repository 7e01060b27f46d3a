/**
 * What the OpenAPI document says beyond the route schemas @fastify/swagger reads, applied to its
 * output by `refineOpenApi` (served at GET /v1/openapi.json and written to api/openapi.json):
 *
 * - Route schemas marked with `documentedAs(name, …)` become `$ref`s to `components.schemas[name]`:
 *   the v1 movie JSON Schema (MovieV1), the variable values a movie can accept (VariableValues),
 *   the Idempotency-Key header (IdempotencyKey) and the error envelope (ErrorEnvelope, once instead
 *   of once per status). Routes still validate
 *   with their own, permissive schemas, so the movie library's path-precise findings stay the
 *   answer; the document is precise enough for clients and fuzzers to generate real movies.
 * - Every operation gets a `default` response with the error envelope: statuses no route names
 *   (405 METHOD_NOT_ALLOWED, 503 SERVICE_UNAVAILABLE during a database outage) are still described.
 * - A request body marked with `optionalBody(…)` (the route reads no body as `{}`) is
 *   `required: false`; @fastify/swagger marks every body required.
 */
import { LIMITS, movieJsonSchema } from '../../movie/index.ts';
import {
  DOCUMENT_COMPONENT_KEY,
  type DocumentComponent,
  ErrorEnvelopeSchema,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_PATTERN,
  OPTIONAL_BODY_KEY,
} from './schemas.ts';

type Json = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/** A plain-JSON copy (TypeBox's symbol keys and our marker dropped). */
function plain(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema, (k, v) => (k === DOCUMENT_COMPONENT_KEY ? undefined : v))) as Json;
}

function movieV1(): Json {
  // $schema and $id would make a nested resource of it: the document's dialect (2020-12) is the same.
  const { $schema: _dialect, $id: _id, ...schema } = movieJsonSchema('v1');
  return schema;
}

function variableValues(): Json {
  const movie = movieJsonSchema('v1') as { properties: { variables: { patternProperties: Json } } };
  const [namePattern] = Object.keys(movie.properties.variables.patternProperties);
  return {
    type: 'object',
    description:
      'Values of the variables the document declares, keyed by name. Each is coerced losslessly to its declared type ("42" is a number, "true" a boolean); null or absent means the declared default. A name the document does not declare is a VALIDATION_ERROR at variables.<name>; a value that does not fit is VARIABLE_TYPE_MISMATCH at the variable\'s first reference.',
    maxProperties: LIMITS.variables,
    propertyNames: { pattern: namePattern, maxLength: LIMITS.variableNameLength },
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: LIMITS.textLength },
  };
}

const COMPONENTS: Record<DocumentComponent, () => Json> = {
  MovieV1: movieV1,
  VariableValues: variableValues,
  ErrorEnvelope: () => plain(ErrorEnvelopeSchema),
  IdempotencyKey: () => ({
    type: 'string',
    minLength: 1,
    maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
    pattern: IDEMPOTENCY_KEY_PATTERN,
    description:
      "A key of the client's choosing, e.g. a UUID. A key outside these bounds is a VALIDATION_ERROR at headers.idempotency-key.",
  }),
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: `${REF_PREFIX}ErrorEnvelope` } } };

const DEFAULT_RESPONSE = {
  description:
    'Error envelope of any status not listed, e.g. 405 METHOD_NOT_ALLOWED for a method the path does not serve, or 503 SERVICE_UNAVAILABLE (with Retry-After) while the database cannot be reached.',
  headers: {
    'Retry-After': {
      description: 'Seconds to wait before retrying (429 and 503).',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
  },
  content: ERROR_CONTENT,
};

/** Replaces every marked schema under `node` with a `$ref` to its component; returns the names used. */
function swapMarked(node: unknown, used: Set<DocumentComponent>): unknown {
  if (Array.isArray(node)) return node.map((v) => swapMarked(v, used));
  if (node === null || typeof node !== 'object') return node;
  const name = (node as Json)[DOCUMENT_COMPONENT_KEY] as DocumentComponent | undefined;
  if (name !== undefined && name in COMPONENTS) {
    used.add(name);
    return { $ref: `${REF_PREFIX}${name}` };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = swapMarked(v, used);
  return out;
}

/** `required: false` on a request body whose schema is marked by `optionalBody`; the marker goes. */
function markOptionalBody(op: { requestBody?: unknown }): void {
  const body = op.requestBody as { required?: boolean; content?: Record<string, { schema?: Json }> } | undefined;
  if (!body?.content) return;
  let optional = false;
  const content: Record<string, { schema?: Json }> = {};
  for (const [type, media] of Object.entries(body.content)) {
    const { [OPTIONAL_BODY_KEY]: marked, ...schema } = media.schema ?? {};
    optional ||= marked === true;
    content[type] = media.schema === undefined ? media : { ...media, schema };
  }
  op.requestBody = optional ? { ...body, required: false, content } : { ...body, content };
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * The OpenAPI document as served: marked schemas as component `$ref`s, and a `default` error
 * response on every operation. Returns a new object (the input, swagger's cached one, is left
 * alone); applying it to its own output changes nothing.
 */
export function refineOpenApi(input: Json): Json {
  const used = new Set<DocumentComponent>(['ErrorEnvelope']);
  const doc = swapMarked(input, used) as Json & {
    components?: { schemas?: Json };
    paths?: Record<string, Record<string, { responses?: Record<string, unknown>; requestBody?: unknown }>>;
  };
  const components = { ...(doc.components ?? {}) } as { schemas?: Json };
  const schemas: Json = { ...(components.schemas ?? {}) };
  for (const name of [...used].sort()) schemas[name] = COMPONENTS[name]();
  components.schemas = schemas;
  doc.components = components;
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.has(method) || !op || typeof op !== 'object') continue;
      op.responses = { ...(op.responses ?? {}) };
      op.responses.default ??= structuredClone(DEFAULT_RESPONSE);
      markOptionalBody(op);
    }
  }
  return doc;
}
