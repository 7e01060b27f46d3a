import { announceKeyChange, EVICT_ALL_KEYS } from './api-keys-repo.ts';
import type { Queryable } from './database.ts';
import type { AccountRow, Plan } from './types.ts';

export async function insertAccount(
  sql: Queryable,
  account: { id: string; name: string; plan: Plan; creditBalance: number; now: Date },
): Promise<AccountRow> {
  const [row] = await sql<AccountRow[]>`
    INSERT INTO accounts (id, name, plan, credit_balance, created_at, updated_at)
    VALUES (${account.id}, ${account.name}, ${account.plan}, ${account.creditBalance}, ${account.now}, ${account.now})
    RETURNING *`;
  if (account.creditBalance !== 0) {
    await sql`INSERT INTO credit_ledger (account_id, delta, reason) VALUES (${account.id}, ${account.creditBalance}, 'grant')`;
  }
  return row as AccountRow;
}

export async function getAccount(sql: Queryable, id: string): Promise<AccountRow | undefined> {
  const [row] = await sql<AccountRow[]>`SELECT * FROM accounts WHERE id = ${id}`;
  return row;
}

/**
 * Locks the account row for the rest of the transaction. Every gate that reads and then spends
 * credits or concurrency takes this lock first, so parallel requests are serialised per account.
 */
export async function lockAccount(tx: Queryable, id: string): Promise<AccountRow | undefined> {
  const [row] = await tx<AccountRow[]>`SELECT * FROM accounts WHERE id = ${id} FOR UPDATE`;
  return row;
}

export async function countAccounts(sql: Queryable): Promise<number> {
  const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM accounts`;
  return row?.n ?? 0;
}

export async function setPlan(sql: Queryable, id: string, plan: Plan): Promise<AccountRow | undefined> {
  const [row] = await sql<AccountRow[]>`
    UPDATE accounts SET plan = ${plan}, updated_at = now() WHERE id = ${id} RETURNING *`;
  // Cached keys carry their account's plan: every API process forgets them all (plan changes are rare).
  if (row) await announceKeyChange(sql, EVICT_ALL_KEYS);
  return row;
}

/**
 * Changes the balance by `delta` (a grant is positive, a charge negative) and records it in the
 * ledger. Run it inside the transaction that holds the account lock when the change is a charge.
 */
export async function adjustCredits(
  sql: Queryable,
  change: { accountId: string; delta: number; reason: string; refId?: string | null },
): Promise<AccountRow | undefined> {
  const [row] = await sql<AccountRow[]>`
    UPDATE accounts SET credit_balance = credit_balance + ${change.delta}, updated_at = now()
    WHERE id = ${change.accountId} RETURNING *`;
  if (!row) return undefined;
  await sql`INSERT INTO credit_ledger (account_id, delta, reason, ref_id)
    VALUES (${change.accountId}, ${change.delta}, ${change.reason}, ${change.refId ?? null})`;
  return row;
}

export async function ledgerSum(sql: Queryable, accountId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    SELECT coalesce(sum(delta), 0)::bigint AS n FROM credit_ledger WHERE account_id = ${accountId}`;
  return row?.n ?? 0;
}
