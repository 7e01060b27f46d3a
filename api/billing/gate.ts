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

export interface Gate {
  /** Credits held by active renders. */
  reserved: number;
  available: number;
  active: number;
}

/** Reads the account's usage under the lock and checks a new render against cap and balance. */
export async function gateRender(tx: Tx, account: AccountRow, rules: PlanRules, cost: number): Promise<Gate> {
  const usage = await activeUsage(tx, account.id);
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
