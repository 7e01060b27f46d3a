import { AppError } from '../../lib/errors.ts';
import { adjustCredits } from '../../store/accounts-repo.ts';
import { emit, runCommand } from './common.ts';

export interface CreditsGrantOptions {
  account: string;
  /** >= 1 */
  amount: number;
  json?: boolean;
}

/** `framewright credits grant`. */
export function grant(o: CreditsGrantOptions): Promise<number> {
  return runCommand(async (open) => {
    const db = await open();
    const account = await db.sql.begin((tx) =>
      adjustCredits(tx, { accountId: o.account, delta: o.amount, reason: 'grant' }),
    );
    if (!account) throw new AppError('NOT_FOUND', `No account ${o.account}.`);
    return emit(
      o.json,
      { accountId: o.account, granted: o.amount, balance: account.creditBalance },
      `${o.account}: +${o.amount} credits, balance ${account.creditBalance}`,
    );
  });
}
