import type { Queryable } from './database.ts';
import type { KeyMode, Owner } from './types.ts';

/** A row of `scripts` (migrations/0100_scripts.sql) as the client returns it. */
export interface ScriptRow {
  id: string;
  accountId: string;
  mode: KeyMode;
  keyId: string;
  request: unknown;
  title: string | null;
  description: string | null;
  scenes: unknown;
  meta: unknown;
  chargedCredits: number;
  createdAt: Date;
}

export async function insertScript(
  sql: Queryable,
  s: Omit<ScriptRow, 'createdAt'> & { now: Date },
): Promise<ScriptRow> {
  const [row] = await sql<ScriptRow[]>`
    INSERT INTO scripts (id, account_id, mode, key_id, request, title, description, scenes, meta, charged_credits, created_at)
    VALUES (${s.id}, ${s.accountId}, ${s.mode}, ${s.keyId}, ${sql.json(s.request as never)}, ${s.title},
      ${s.description}, ${sql.json(s.scenes as never)}, ${sql.json(s.meta as never)}, ${s.chargedCredits}, ${s.now})
    RETURNING *`;
  return row as ScriptRow;
}

/** The script when it belongs to the owner (account and key mode); undefined otherwise. */
export async function getScript(sql: Queryable, owner: Owner, id: string): Promise<ScriptRow | undefined> {
  const [row] = await sql<ScriptRow[]>`
    SELECT * FROM scripts WHERE id = ${id} AND account_id = ${owner.accountId} AND mode = ${owner.mode}`;
  return row;
}

export async function countScripts(sql: Queryable, accountId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM scripts WHERE account_id = ${accountId}`;
  return row?.n ?? 0;
}
