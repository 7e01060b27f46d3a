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

export const ErrorBodySchema = Type.Object(
  {
    code: StringEnum<ErrorCode>(ERROR_CODES, 'Stable, machine-matchable code.'),
    message: Type.String(),
    path: Type.Optional(Type.String({ description: 'Exact JSON path of the offending field.' })),
    docsUrl: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false },
);

export const ErrorEnvelopeSchema = Type.Object(
  {
    error: ErrorBodySchema,
    errors: Type.Optional(Type.Array(ErrorBodySchema, { description: 'All findings; error equals errors[0].' })),
    requestId: Type.String(),
  },
  { additionalProperties: false, description: 'The error envelope of every non-2xx response.' },
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

export const ListMeta = {
  page: Type.Integer({ minimum: 1 }),
  pageSize: Type.Integer({ minimum: 1 }),
  total: Type.Integer({ minimum: 0 }),
  hasMore: Type.Boolean(),
};

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
};

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

export const IdempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ description: 'Replays the original response for 24 hours when the body is the same.' }),
  ),
});

/** A movie document, or any JSON object the movie library validates itself (all findings at once). */
export const MovieDocument = Type.Object(
  {},
  { additionalProperties: true, description: 'A movie document (see GET /v1/schemas/movie.v1.json).' },
);
