import { AppError } from '../../lib/errors.ts';
import { newWebhookSecret } from '../../lib/webhooks/signature.ts';
import { setPlan } from '../../store/accounts-repo.ts';
import { ensureWebhookSecret } from '../../store/lifecycle/webhook-outbox-repo.ts';
import { createAccountWithKey } from '../auth/provision.ts';
import { emit, intOf, need, parse, planOf, runCommand, UsageError } from './common.ts';

const USAGE = `Usage:
  framewright accounts create --plan trial|starter|pro|studio [--credits N] [--name S] [--mode live|test] [--json]
  framewright accounts set-plan --account ACC --plan PLAN [--json]
`;

export async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  return runCommand(USAGE, async (open) => {
    if (sub === 'create') {
      const { values } = parse(rest, {
        plan: { type: 'string' },
        credits: { type: 'string' },
        name: { type: 'string' },
        mode: { type: 'string' },
      });
      const plan = planOf(need(values, 'plan'));
      const credits = values.credits === undefined ? undefined : intOf('credits', String(values.credits), 0);
      const mode = values.mode ?? 'live';
      if (mode !== 'live' && mode !== 'test') throw new UsageError(`--mode must be live or test. Passed: ${mode}`);
      const db = await open();
      const { account, key } = await createAccountWithKey(db, {
        plan,
        ...(credits !== undefined ? { credits } : {}),
        ...(typeof values.name === 'string' ? { name: values.name } : {}),
        mode,
      });
      const webhookSecret = await ensureWebhookSecret(db.sql, account.id, newWebhookSecret);
      return emit(
        values.json as boolean,
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
    }
    if (sub === 'set-plan') {
      const { values } = parse(rest, { account: { type: 'string' }, plan: { type: 'string' } });
      const plan = planOf(need(values, 'plan'));
      const account = await setPlan((await open()).sql, need(values, 'account'), plan);
      if (!account) throw new AppError('NOT_FOUND', `No account ${values.account}.`);
      return emit(values.json as boolean, { accountId: account.id, plan: account.plan }, `${account.id}: ${plan}`);
    }
    throw new UsageError(sub ? `Unknown subcommand "${sub}".` : 'A subcommand is required.');
  });
}
