import { AppError } from '../../lib/errors.ts';
import { newWebhookSecret } from '../../lib/webhooks/signature.ts';
import { setPlan as setAccountPlan } from '../../store/accounts-repo.ts';
import { ensureWebhookSecret } from '../../store/lifecycle/webhook-outbox-repo.ts';
import type { KeyMode, Plan } from '../../store/types.ts';
import { createAccountWithKey } from '../auth/provision.ts';
import { emit, runCommand } from './common.ts';

export interface AccountsCreateOptions {
  plan: Plan;
  credits?: number;
  name?: string;
  mode: KeyMode;
  json?: boolean;
}

export interface AccountsSetPlanOptions {
  account: string;
  plan: Plan;
  json?: boolean;
}

/** `framewright accounts create`: an account, its first key (shown once) and its webhook secret. */
export function create(o: AccountsCreateOptions): Promise<number> {
  return runCommand(async (open) => {
    const db = await open();
    const { account, key } = await createAccountWithKey(db, {
      plan: o.plan,
      ...(o.credits !== undefined ? { credits: o.credits } : {}),
      ...(o.name !== undefined ? { name: o.name } : {}),
      mode: o.mode,
    });
    const webhookSecret = await ensureWebhookSecret(db.sql, account.id, newWebhookSecret);
    return emit(
      o.json,
      {
        accountId: account.id,
        plan: account.plan,
        credits: account.creditBalance,
        keyId: key.row.id,
        key: key.secret,
        webhookSecret,
      },
      `account ${account.id} (${account.plan}, ${account.creditBalance} credits)\nkey ${key.row.id}: ${key.secret}\nThe key is shown once; store it now.\nwebhook signing secret: ${webhookSecret}`,
    );
  });
}

/** `framewright accounts set-plan`. */
export function setPlan(o: AccountsSetPlanOptions): Promise<number> {
  return runCommand(async (open) => {
    const account = await setAccountPlan((await open()).sql, o.account, o.plan);
    if (!account) throw new AppError('NOT_FOUND', `No account ${o.account}.`);
    return emit(o.json, { accountId: account.id, plan: account.plan }, `${account.id}: ${o.plan}`);
  });
}
