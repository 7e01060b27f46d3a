import { AppError } from '../../lib/errors.ts';
import { adjustCredits } from '../../store/accounts-repo.ts';
import { emit, intOf, need, parse, runCommand, UsageError } from './common.ts';

const USAGE = `Usage:
  framewright credits grant --account ACC --amount N [--json]
`;

export async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  return runCommand(USAGE, async (open) => {
    if (sub !== 'grant') throw new UsageError(sub ? `Unknown subcommand "${sub}".` : 'A subcommand is required.');
    const { values } = parse(rest, { account: { type: 'string' }, amount: { type: 'string' } });
    const accountId = need(values, 'account');
    const amount = intOf('amount', need(values, 'amount'), 1);
    const db = await open();
    const account = await db.sql.begin((tx) => adjustCredits(tx, { accountId, delta: amount, reason: 'grant' }));
    if (!account) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
    return emit(
      values.json as boolean,
      { accountId, granted: amount, balance: account.creditBalance },
      `${accountId}: +${amount} credits, balance ${account.creditBalance}`,
    );
  });
}
