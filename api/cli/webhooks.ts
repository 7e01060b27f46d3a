import { AppError } from '../../lib/errors.ts';
import { newWebhookSecret } from '../../lib/webhooks/signature.ts';
import { ensureWebhookSecret, rotateWebhookSecret } from '../../store/lifecycle/webhook-outbox-repo.ts';
import { emit, need, parse, runCommand, UsageError } from './common.ts';

const USAGE = `Usage:
  framewright webhooks secret --account ACC [--json]          show the signing secret (created if missing)
  framewright webhooks rotate-secret --account ACC [--json]   replace it; deliveries from now on use the new one
`;

/** `framewright webhooks`: the per-account Standard Webhooks signing secret (whsec_...). */
export async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  return runCommand(USAGE, async (open) => {
    const { values } = parse(rest, { account: { type: 'string' } });
    const accountId = need(values, 'account');
    const db = await open();
    if (sub === 'secret') {
      const secret = await ensureWebhookSecret(db.sql, accountId, newWebhookSecret).catch(() => {
        throw new AppError('NOT_FOUND', `No account ${accountId}.`);
      });
      return emit(values.json as boolean, { accountId, webhookSecret: secret }, secret);
    }
    if (sub === 'rotate-secret') {
      const secret = newWebhookSecret();
      if (!(await rotateWebhookSecret(db.sql, accountId, secret))) {
        throw new AppError('NOT_FOUND', `No account ${accountId}.`);
      }
      return emit(values.json as boolean, { accountId, webhookSecret: secret }, secret);
    }
    throw new UsageError(sub ? `Unknown subcommand "${sub}".` : 'A subcommand is required.');
  });
}
