import type postgres from 'postgres';
import { AppError } from '../../lib/errors.ts';
import { adjustCredits, lockAccount } from '../../store/accounts-repo.ts';
import type { Database, Tx } from '../../store/database.ts';
import { activeUsage, type GateDecision, type GatePlanRules } from '../../store/renders-repo.ts';
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

const gateRulesOf = new WeakMap<object, Readonly<Record<string, GatePlanRules>>>();

/**
 * The part of the plan table the creation gate decides with (concurrency, webhooks, watermark),
 * sent with every call of framewright_create_render; built once per table.
 */
export function gateRules(plans: Readonly<Record<string, PlanRules>>): Readonly<Record<string, GatePlanRules>> {
  let rules = gateRulesOf.get(plans);
  if (!rules) {
    rules = Object.fromEntries(
      Object.entries(plans).map(([plan, r]) => [
        plan,
        { concurrency: r.concurrency, webhooks: r.webhooks, watermark: r.watermark },
      ]),
    );
    gateRulesOf.set(plans, rules);
  }
  return rules;
}

/**
 * The catalogued error of a render the database refused (framewright_create_render decides;
 * this only words its answer). `cost` is the reservation that was asked for.
 */
export function gateError(decision: Omit<GateDecision, 'render'>, cost: number): AppError {
  const { accountPlan: plan, planConcurrency: cap, activeRenders: active, availableCredits: available } = decision;
  switch (decision.reason) {
    case 'no_account':
      return new AppError('UNAUTHORIZED', 'The account of this API key no longer exists.');
    case 'webhooks_not_allowed':
      return new AppError(
        'WEBHOOKS_NOT_ALLOWED',
        `The ${plan} plan cannot use webhook_url. Poll GET /v1/renders/{id} or upgrade the plan.`,
        { path: 'webhook_url' },
      );
    case 'concurrency':
      return new AppError(
        'CONCURRENCY_LIMIT',
        `The ${plan} plan allows ${cap} render(s) queued or in progress at once; ${active} are. Retry when one finishes.`,
        { headers: { 'retry-after': '15' } },
      );
    case 'insufficient_credits':
      return new AppError(
        'INSUFFICIENT_CREDITS',
        `This render needs an estimated ${cost} credits; ${Math.max(0, available ?? 0)} are available.`,
      );
    default:
      // 'unknown_plan' (an account whose plan this configuration does not know), or 'ok' passed here by mistake.
      return new AppError('INTERNAL', `The render could not be gated (${decision.reason}, plan ${plan}).`);
  }
}

/**
 * The credits an immediate charge may spend: the balance less what the account's queued and
 * running renders have reserved (the creation gate computes the same in framewright_create_render;
 * api/billing/gate.test.ts feeds both one table of cases). Call inside `withAccountLock`.
 */
export async function availableCredits(tx: Tx, account: AccountRow): Promise<number> {
  const usage = await activeUsage(tx, account.id);
  return account.creditBalance - usage.reserved;
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
  const available = await availableCredits(tx, account);
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
