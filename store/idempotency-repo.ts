import type { Queryable } from './database.ts';
import type { IdempotencyRow, KeyMode } from './types.ts';

/** Replays are honoured for this long; an older record is treated as absent and replaced. */
const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Where one Idempotency-Key lives: per account and per key mode, as a live and a test key of one
 * account never see each other's resources (so a key reused across modes is no conflict).
 */
export interface IdempotencyScope {
  accountId: string;
  mode: KeyMode;
  key: string;
}

/**
 * Serialises every request of one scope (account, mode, key) until the end of the transaction, so
 * parallel duplicates see each other's committed result.
 */
export async function lockIdempotencyKey(tx: Queryable, s: IdempotencyScope): Promise<void> {
  // Unambiguous: account ids and modes hold no ':', whatever the key holds comes last.
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`${s.accountId}:${s.mode}:${s.key}`}, 0))`;
}

export async function findIdempotencyRecord(
  sql: Queryable,
  s: IdempotencyScope,
  now: Date,
): Promise<IdempotencyRow | undefined> {
  const since = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
  const [row] = await sql<IdempotencyRow[]>`
    SELECT * FROM idempotency_keys
    WHERE account_id = ${s.accountId} AND mode = ${s.mode} AND key = ${s.key} AND created_at > ${since}`;
  return row;
}

export async function saveIdempotencyRecord(
  sql: Queryable,
  r: IdempotencyScope & { requestHash: string; resourceType: string; resourceId: string; now: Date },
): Promise<void> {
  // An expired record with the same key is replaced: the key is free again after the window.
  await sql`
    INSERT INTO idempotency_keys (account_id, mode, key, request_hash, resource_type, resource_id, created_at)
    VALUES (${r.accountId}, ${r.mode}, ${r.key}, ${r.requestHash}, ${r.resourceType}, ${r.resourceId}, ${r.now})
    ON CONFLICT (account_id, mode, key) DO UPDATE SET request_hash = excluded.request_hash,
      resource_type = excluded.resource_type, resource_id = excluded.resource_id, created_at = excluded.created_at`;
}

/**
 * Deletes up to `limit` records past the window (they no longer answer a replay: the key is free
 * again) and answers how many. A record reused meanwhile (a new request under the same key) has a
 * new `created_at` and stays.
 */
export async function deleteExpiredIdempotencyRecords(sql: Queryable, now: Date, limit: number): Promise<number> {
  const since = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
  const rows = await sql`
    DELETE FROM idempotency_keys
    WHERE created_at <= ${since} AND (account_id, mode, key) IN (
      SELECT account_id, mode, key FROM idempotency_keys WHERE created_at <= ${since} LIMIT ${limit})
    RETURNING 1`;
  return rows.length;
}
