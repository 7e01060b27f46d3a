import { AppError } from '../../lib/errors.ts';
import { newWebhookSecret } from '../../lib/webhooks/signature.ts';
import { ensureWebhookSecret, rotateWebhookSecret } from '../../store/lifecycle/webhook-outbox-repo.ts';
import { type AccountOptions, emit, runCommand } from './common.ts';

/** `framewright webhooks secret`: the per-account Standard Webhooks signing secret (whsec_...), created if missing. */
export function secret(o: AccountOptions): Promise<number> {
  return runCommand(async (open) => {
    const db = await open();
    const value = await ensureWebhookSecret(db.sql, o.account, newWebhookSecret).catch(() => {
      throw new AppError('NOT_FOUND', `No account ${o.account}.`);
    });
    return emit(o.json, { accountId: o.account, webhookSecret: value }, value);
  });
}

/** `framewright webhooks rotate-secret`: a new secret; deliveries from now on are signed with it. */
export function rotateSecret(o: AccountOptions): Promise<number> {
  return runCommand(async (open) => {
    const db = await open();
    const value = newWebhookSecret();
    if (!(await rotateWebhookSecret(db.sql, o.account, value))) {
      throw new AppError('NOT_FOUND', `No account ${o.account}.`);
    }
    return emit(o.json, { accountId: o.account, webhookSecret: value }, value);
  });
}
