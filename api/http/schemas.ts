import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { ERROR_CATALOG, ERROR_CODES, type ErrorCode } from '../../lib/errors.ts';

/** A string enum as plain JSON Schema `enum` (what ajv, fast-json-stringify and OpenAPI read best). */
export function StringEnum<T extends string>(values: readonly T[], description?: string) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });
}

/**
 * `T | null` as a JSON Schema type array (`type: ['string', 'null']`) rather than anyOf: OpenAPI 3.1
 * reads it the same, and fast-json-stringify serialises it without trying each branch per value.
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type as string, 'null'] });

export const DateTime = Type.String({ format: 'date-time' });

/**
 * Components of the OpenAPI document that stand in for a route schema there (api/http/openapi-schemas.ts
 * defines them). The route keeps its own schema for validation and serialisation: the movie library
 * checks movies with path-precise findings that ajv's coarser errors must not pre-empt; only the
 * document, which clients and fuzzers generate requests from, shows the precise schema.
 */
export type DocumentComponent = 'MovieV1' | 'VariableValues' | 'ErrorEnvelope' | 'IdempotencyKey';

/** The key marking a route schema as shown by a component (read and removed by refineOpenApi). */
export const DOCUMENT_COMPONENT_KEY = 'x-fw-component';

/** `schema` at run time; `{ $ref: '#/components/schemas/<name>' }` in the OpenAPI document. */
function documentedAs<T extends TSchema>(name: DocumentComponent, schema: T): T {
  return { ...schema, [DOCUMENT_COMPONENT_KEY]: name };
}

/** The key marking a body schema a request may leave out (read and removed by refineOpenApi). */
export const OPTIONAL_BODY_KEY = 'x-fw-optional-body';

/**
 * A body schema whose fields all have defaults, so that a request may send no body at all (the
 * route reads it as `{}`, see `emptyBodyAsObject`); the OpenAPI document says `required: false`.
 */
export function optionalBody<T extends TSchema>(schema: T): T {
  return { ...schema, [OPTIONAL_BODY_KEY]: true };
}

/** The preValidation of an `optionalBody` route: a request without a body is read as `{}`. */
export async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

export const ErrorBodySchema = Type.Object(
  {
    code: StringEnum<ErrorCode>(ERROR_CODES, 'Stable, machine-matchable code.'),
    message: Type.String(),
    path: Type.Optional(Type.String({ description: 'Exact JSON path of the offending field.' })),
    docsUrl: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false },
);

export const ErrorEnvelopeSchema = documentedAs(
  'ErrorEnvelope',
  Type.Object(
    {
      error: ErrorBodySchema,
      errors: Type.Optional(Type.Array(ErrorBodySchema, { description: 'All findings; error equals errors[0].' })),
      requestId: Type.String(),
    },
    { additionalProperties: false, description: 'The error envelope of every non-2xx response.' },
  ),
);

/**
 * Response schemas for the error statuses the given codes answer with, plus the codes every
 * authenticated endpoint may answer (UNAUTHORIZED, RATE_LIMITED, INTERNAL).
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, typeof ErrorEnvelopeSchema> {
  const all: ErrorCode[] = [...codes, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'RATE_LIMITED', 'INTERNAL'];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  const out: Record<number, typeof ErrorEnvelopeSchema> = {};
  for (const [status, list] of byStatus) {
    out[status] = { ...ErrorEnvelopeSchema, description: `Error envelope; codes: ${list.join(', ')}.` };
  }
  return out;
}

/**
 * The last page a list serves. The row offset, (page - 1) * page_size, is at most 99,999,900:
 * an exact integer in JavaScript and in PostgreSQL's bigint OFFSET. Past it a page number is a
 * VALIDATION_ERROR at `page` rather than an offset the database cannot read (e.g. 2e+21).
 */
export const MAX_PAGE = 1_000_000;
export const MAX_PAGE_SIZE = 100;

export const ListMeta = {
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE }),
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
  total: Type.Integer({ minimum: 0 }),
  hasMore: Type.Boolean(),
};

export const PageQuery = {
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      default: 1,
      description: `1-based page number, at most ${MAX_PAGE}.`,
    }),
  ),
  page_size: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 20, description: 'Items per page.' }),
  ),
};

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

/** Longest Idempotency-Key accepted (api/plugins/idempotency.ts enforces it, with the pattern below). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Printable ASCII, space included: what every HTTP client sends unchanged. */
export const IDEMPOTENCY_KEY_PATTERN = '^[ -~]+$';

/**
 * The Idempotency-Key header. The idempotency plugin checks it (VALIDATION_ERROR at
 * headers.idempotency-key, one message for every way it can be wrong); the OpenAPI document shows
 * the bounds (component IdempotencyKey).
 */
export const IdempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    documentedAs(
      'IdempotencyKey',
      Type.String({
        description: `Replays the original response for 24 hours when the body is the same. 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`,
      }),
    ),
  ),
});

/**
 * A movie document. The route accepts any JSON object and the movie library validates it (every
 * finding at once, paths relative to the document); the OpenAPI document shows the v1 JSON Schema.
 */
export const MovieDocument = documentedAs(
  'MovieV1',
  Type.Object({}, { additionalProperties: true, description: 'A movie document (see GET /v1/schemas/movie.v1.json).' }),
);

/**
 * Variable values keyed by name. The route accepts any object and the movie library checks each
 * value against its declaration (VARIABLE_TYPE_MISMATCH at the first reference); the OpenAPI
 * document shows what can be accepted.
 */
export const VariableValues = documentedAs(
  'VariableValues',
  Type.Record(Type.String(), Type.Unknown(), { description: 'Values keyed by variable name.' }),
);
