import type { Queryable } from './database.ts';
import type { IdempotencyRow } from './types.ts';

/** Replays are honoured for this long; an older record is treated as absent and replaced. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Serialises every request of one account that carries the same Idempotency-Key until the end of
 * the transaction, so parallel duplicates see each other's committed result.
 */
export async function lockIdempotencyKey(tx: Queryable, accountId: string, key: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`${accountId}:${key}`}, 0))`;
}

export async function findIdempotencyRecord(
  sql: Queryable,
  accountId: string,
  key: string,
  now: Date,
): Promise<IdempotencyRow | undefined> {
  const since = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
  const [row] = await sql<IdempotencyRow[]>`
    SELECT * FROM idempotency_keys WHERE account_id = ${accountId} AND key = ${key} AND created_at > ${since}`;
  return row;
}

export async function saveIdempotencyRecord(
  sql: Queryable,
  r: { accountId: string; key: string; requestHash: string; resourceType: string; resourceId: string; now: Date },
): Promise<void> {
  // An expired record with the same key is replaced: the key is free again after the window.
  await sql`
    INSERT INTO idempotency_keys (account_id, key, request_hash, resource_type, resource_id, created_at)
    VALUES (${r.accountId}, ${r.key}, ${r.requestHash}, ${r.resourceType}, ${r.resourceId}, ${r.now})
    ON CONFLICT (account_id, key) DO UPDATE SET request_hash = excluded.request_hash,
      resource_type = excluded.resource_type, resource_id = excluded.resource_id, created_at = excluded.created_at`;
}
