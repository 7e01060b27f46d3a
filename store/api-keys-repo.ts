import type { Queryable } from './database.ts';
import type { ApiKeyRow, KeyMode, Plan } from './types.ts';

/**
 * API processes cache verified keys (api/auth/key-cache.ts). Changes announce themselves on this
 * channel when they commit: a revoked key's hash, or EVICT_ALL_KEYS when what is cached with
 * every key may have changed (an account's plan).
 */
export const KEY_CHANGES_CHANNEL = 'framewright_api_keys';
export const EVICT_ALL_KEYS = '*';

export async function announceKeyChange(sql: Queryable, hashOrAll: string): Promise<void> {
  await sql`SELECT pg_notify(${KEY_CHANGES_CHANNEL}, ${hashOrAll})`;
}

/** What authentication needs from one lookup: the key, its account and the account's plan. */
export interface KeyLookup {
  keyId: string;
  keyHash: string;
  accountId: string;
  mode: KeyMode;
  plan: Plan;
  revokedAt: Date | null;
}

export async function insertKey(
  sql: Queryable,
  key: { id: string; accountId: string; mode: KeyMode; keyHash: string; prefix: string },
): Promise<ApiKeyRow> {
  const [row] = await sql<ApiKeyRow[]>`
    INSERT INTO api_keys (id, account_id, mode, key_hash, prefix)
    VALUES (${key.id}, ${key.accountId}, ${key.mode}, ${key.keyHash}, ${key.prefix})
    RETURNING *`;
  return row as ApiKeyRow;
}

export async function findKeyByHash(sql: Queryable, keyHash: string): Promise<KeyLookup | undefined> {
  const [row] = await sql<KeyLookup[]>`
    SELECT k.id AS key_id, k.key_hash, k.account_id, k.mode, a.plan, k.revoked_at
    FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = ${keyHash}`;
  return row;
}

/** The same lookup by key id: a preview token names its key (api/previews/preview-token.ts). */
export async function findKeyById(sql: Queryable, keyId: string): Promise<KeyLookup | undefined> {
  const [row] = await sql<KeyLookup[]>`
    SELECT k.id AS key_id, k.key_hash, k.account_id, k.mode, a.plan, k.revoked_at
    FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE k.id = ${keyId}`;
  return row;
}

/**
 * The keys one caller may see and manage: its own account's, of the modes it may manage. Every
 * read on behalf of an API caller takes one, so another account's key is simply not there.
 */
export interface KeyScope {
  accountId: string;
  modes: readonly KeyMode[];
}

/** A key by id; with `scope`, only when it is within it (else undefined, as for an unknown id). */
export async function getKey(sql: Queryable, id: string, scope?: KeyScope): Promise<ApiKeyRow | undefined> {
  const [row] = scope
    ? await sql<ApiKeyRow[]>`SELECT * FROM api_keys
        WHERE id = ${id} AND account_id = ${scope.accountId} AND mode = ANY(${scope.modes as KeyMode[]})`
    : await sql<ApiKeyRow[]>`SELECT * FROM api_keys WHERE id = ${id}`;
  return row;
}

/** One page of the keys in `scope`, newest first (createdAt, then id, descending), and their count. */
export async function listScopedKeys(
  sql: Queryable,
  scope: KeyScope,
  filter: { status?: 'active' | 'revoked' | undefined },
  page: { limit: number; offset: number },
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const status =
    filter.status === 'active'
      ? sql`AND revoked_at IS NULL`
      : filter.status === 'revoked'
        ? sql`AND revoked_at IS NOT NULL`
        : sql``;
  const where = sql`account_id = ${scope.accountId} AND mode = ANY(${scope.modes as KeyMode[]}) ${status}`;
  const [rows, count] = await Promise.all([
    sql<ApiKeyRow[]>`SELECT * FROM api_keys WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql<{ n: number }[]>`SELECT count(*)::int AS n FROM api_keys WHERE ${where}`,
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/**
 * Records that a key was used at `at`. The row is only written when the stored time is a minute
 * old or more, so several API processes using one key write it about once a minute in all (an
 * UPDATE whose WHERE matches nothing writes no row version).
 */
export async function touchKeyLastUsed(sql: Queryable, id: string, at: Date): Promise<void> {
  await sql`UPDATE api_keys SET last_used_at = ${at}
    WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at <= ${at}::timestamptz - interval '1 minute')`;
}

export async function listKeys(sql: Queryable, accountId: string): Promise<ApiKeyRow[]> {
  return sql<ApiKeyRow[]>`SELECT * FROM api_keys WHERE account_id = ${accountId} ORDER BY created_at, id`;
}

/** Revokes a key; returns undefined when it does not exist or was already revoked. */
export async function revokeKey(
  sql: Queryable,
  id: string,
  replacedBy: string | null = null,
): Promise<ApiKeyRow | undefined> {
  const [row] = await sql<ApiKeyRow[]>`
    UPDATE api_keys SET revoked_at = now(), replaced_by = ${replacedBy}
    WHERE id = ${id} AND revoked_at IS NULL RETURNING *`;
  if (row) await announceKeyChange(sql, row.keyHash);
  return row;
}

/**
 * Rolls a key: the replacement is inserted before the old key is revoked, in one transaction, so
 * there is no instant with neither key valid and no outcome with both left active.
 */
export async function rollKey(
  sql: import('postgres').Sql,
  oldId: string,
  replacement: { id: string; keyHash: string; prefix: string },
): Promise<{ old: ApiKeyRow; created: ApiKeyRow } | undefined> {
  return sql.begin(async (tx) => {
    const [old] = await tx<ApiKeyRow[]>`SELECT * FROM api_keys WHERE id = ${oldId} AND revoked_at IS NULL FOR UPDATE`;
    if (!old) return undefined;
    const created = await insertKey(tx, { ...replacement, accountId: old.accountId, mode: old.mode });
    const revoked = await revokeKey(tx, oldId, created.id);
    return { old: revoked as ApiKeyRow, created };
  });
}
