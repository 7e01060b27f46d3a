import type { Queryable } from './database.ts';
import type { Owner } from './types.ts';

/** Tables of items owned by an account and key mode, listed newest first. */
export type OwnedTable = 'templates' | 'assets';

/**
 * One page of the owner's rows of `table`, createdAt then id descending (the spec's stable order),
 * and how many rows the owner has in all.
 */
export async function listOwned<Row extends object>(
  sql: Queryable,
  table: OwnedTable,
  owner: Owner,
  page: { limit: number; offset: number },
): Promise<{ rows: Row[]; total: number }> {
  const where = sql`account_id = ${owner.accountId} AND mode = ${owner.mode}`;
  const [rows, count] = await Promise.all([
    sql<Row[]>`SELECT * FROM ${sql(table)} WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${sql(table)} WHERE ${where}`,
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
