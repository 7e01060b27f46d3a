import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import type { Queryable } from '../../store/database.ts';
import { findIdempotencyRecord, lockIdempotencyKey, saveIdempotencyRecord } from '../../store/idempotency-repo.ts';
import type { KeyMode } from '../../store/types.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { canonicalJson } from '../http/canonical-json.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from '../http/schemas.ts';

interface IdempotencyClaim {
  accountId: string;
  /** The caller's key mode: live and test keys of one account each have their own keys. */
  mode: KeyMode;
  key: string;
  requestHash: string;
}

/**
 * Printable ASCII, space included: what every HTTP client can send unchanged. (Node passes other
 * bytes on as latin1, so "é" sent as UTF-8 would be stored as two other characters.) The same
 * pattern is the one the OpenAPI document declares.
 */
const KEY_CHARS = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/**
 * Idempotency-Key handling for creating POSTs. Use it inside the transaction that creates the
 * resource: `claim` takes a per-(account, mode, key) lock and returns the resource to replay (or null),
 * throwing IDEMPOTENCY_KEY_REUSED for a different body; `record` stores the new resource's id in
 * the same transaction, so a failed request stores nothing and parallel duplicates create one.
 */
export interface IdempotencyService {
  /** The checked header value (1..255 printable ASCII chars, else VALIDATION_ERROR); undefined when absent. */
  keyOf(request: FastifyRequest): string | undefined;
  /** What makes two requests the same: method, route, key mode and the canonical JSON body. */
  requestHash(request: FastifyRequest, auth: AuthContext): string;
  claim(tx: Queryable, claim: IdempotencyClaim): Promise<{ resourceType: string; resourceId: string } | null>;
  record(tx: Queryable, claim: IdempotencyClaim & { resourceType: string; resourceId: string }): Promise<void>;
}

function idempotencyService(now: () => Date): IdempotencyService {
  return {
    keyOf(request) {
      const raw = request.headers['idempotency-key'];
      if (raw === undefined) return undefined;
      const value = Array.isArray(raw) ? raw.join(',') : raw;
      if (value.length < 1 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !KEY_CHARS.test(value)) {
        throw new AppError(
          'VALIDATION_ERROR',
          `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`,
          { path: 'headers.idempotency-key' },
        );
      }
      return value;
    },
    requestHash(request, auth) {
      const route = request.routeOptions.url ?? request.url;
      const params = canonicalJson(request.params ?? {});
      return createHash('sha256')
        .update(`${request.method} ${route} ${params} ${auth.mode}\n${canonicalJson(request.body ?? null)}`)
        .digest('hex');
    },
    async claim(tx, c) {
      await lockIdempotencyKey(tx, c);
      const found = await findIdempotencyRecord(tx, c, now());
      if (!found) return null;
      if (found.requestHash !== c.requestHash) {
        throw new AppError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used in the last 24 hours with a different request. Use a new key.',
          { path: 'headers.idempotency-key' },
        );
      }
      return { resourceType: found.resourceType, resourceId: found.resourceId };
    },
    async record(tx, c) {
      await saveIdempotencyRecord(tx, {
        accountId: c.accountId,
        mode: c.mode,
        key: c.key,
        requestHash: c.requestHash,
        resourceType: c.resourceType,
        resourceId: c.resourceId,
        now: now(),
      });
    },
  };
}

export const idempotencyPlugin = fp(
  async (app) => {
    app.decorate('idempotency', idempotencyService(app.now));
  },
  { name: 'idempotency', dependencies: ['config', 'db'] },
);
