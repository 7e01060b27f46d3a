import type postgres from 'postgres';
import { AppError } from '../../lib/errors.ts';
import { adjustCredits, lockAccount } from '../../store/accounts-repo.ts';
import type { Database, Tx } from '../../store/database.ts';
import { activeUsage } from '../../store/renders-repo.ts';
import type { AccountRow } from '../../store/types.ts';
import type { PlanRules } from './plans.ts';

/**
 * Runs `fn` in one transaction holding the account row lock (SELECT ... FOR UPDATE). Everything
 * that reads a balance or a count and then spends it goes through here, so parallel requests of
 * one account are serialised and can never overspend or overshoot a cap.
 */
export async function withAccountLock<T>(
  db: Database,
  accountId: string,
  fn: (tx: Tx, account: AccountRow) => Promise<T>,
): Promise<T> {
  return (await db.sql.begin(async (tx: postgres.TransactionSql) => {
    const account = await lockAccount(tx, accountId);
    if (!account) throw new AppError('UNAUTHORIZED', 'The account of this API key no longer exists.');
    return fn(tx, account);
  })) as T;
}

/**
 * `withAccountLock` plus the account's active usage, read in the same round trip: the two
 * statements are pipelined on the transaction's connection, and the usage statement runs after
 * the lock is granted (its own snapshot, so it sees every render committed before), which keeps
 * the check exact while saving a round trip on the busiest write path.
 */
export async function withAccountUsage<T>(
  db: Database,
  accountId: string,
  fn: (tx: Tx, account: AccountRow, usage: Usage) => Promise<T>,
): Promise<T> {
  return (await db.sql.begin(async (tx: postgres.TransactionSql) => {
    const [account, usage] = await Promise.all([lockAccount(tx, accountId), activeUsage(tx, accountId)]);
    if (!account) throw new AppError('UNAUTHORIZED', 'The account of this API key no longer exists.');
    return fn(tx, account, usage);
  })) as T;
}

/** Renders queued or in progress, and the credits they hold. */
export interface Usage {
  active: number;
  reserved: number;
}

export interface Gate {
  /** Credits held by active renders. */
  reserved: number;
  available: number;
  active: number;
}

/** Checks a new render against cap and balance, with the usage read under the account lock. */
export function gateRender(account: AccountRow, usage: Usage, rules: PlanRules, cost: number): Gate {
  const available = account.creditBalance - usage.reserved;
  if (usage.active >= rules.concurrency) {
    throw new AppError(
      'CONCURRENCY_LIMIT',
      `The ${account.plan} plan allows ${rules.concurrency} render(s) queued or in progress at once; ${usage.active} are. Retry when one finishes.`,
      { headers: { 'retry-after': '15' } },
    );
  }
  if (cost > available) {
    throw new AppError(
      'INSUFFICIENT_CREDITS',
      `This render needs an estimated ${cost} credits; ${Math.max(0, available)} are available.`,
    );
  }
  return { reserved: usage.reserved, available, active: usage.active };
}

/**
 * Charges `amount` credits now (scripts, images): checks the available balance under the lock and
 * records the charge in the ledger. Call inside `withAccountLock`.
 */
export async function chargeCredits(
  tx: Tx,
  account: AccountRow,
  charge: { amount: number; reason: string; refId?: string },
): Promise<AccountRow> {
  const usage = await activeUsage(tx, account.id);
  const available = account.creditBalance - usage.reserved;
  if (charge.amount > available) {
    throw new AppError(
      'INSUFFICIENT_CREDITS',
      `This request needs ${charge.amount} credits; ${Math.max(0, available)} are available.`,
    );
  }
  const updated = await adjustCredits(tx, {
    accountId: account.id,
    delta: -charge.amount,
    reason: charge.reason,
    refId: charge.refId ?? null,
  });
  return updated as AccountRow;
}
