import { newId } from '../../lib/ids.ts';
import { insertAccount } from '../../store/accounts-repo.ts';
import { getKey, insertKey, type KeyScope, rollKey } from '../../store/api-keys-repo.ts';
import type { Database } from '../../store/database.ts';
import type { AccountRow, ApiKeyRow, KeyMode, Plan } from '../../store/types.ts';
import { TRIAL_CREDITS } from '../billing/plans.ts';
import { generateApiKey } from './api-key.ts';

export interface IssuedKey {
  row: ApiKeyRow;
  /** Shown once; only its hash is stored. */
  secret: string;
}

export async function issueKey(
  sql: Database['sql'] | Parameters<typeof insertKey>[0],
  accountId: string,
  mode: KeyMode,
): Promise<IssuedKey> {
  const { secret, keyHash, prefix } = generateApiKey(mode);
  const row = await insertKey(sql, { id: newId('key'), accountId, mode, keyHash, prefix });
  return { row, secret };
}

/**
 * Rolls a key, for the CLI and the API alike: a new secret of the old key's mode is inserted
 * before the old key is revoked, in one transaction (store/api-keys-repo.ts rollKey), so the
 * caller is never left with no valid key. Undefined when the key is unknown, outside `scope`
 * or already revoked. The revocation is announced, so every API process refuses the old key.
 */
export async function rollApiKey(
  sql: Database['sql'],
  oldId: string,
  scope?: KeyScope,
): Promise<{ revoked: ApiKeyRow; created: IssuedKey } | undefined> {
  const old = await getKey(sql, oldId, scope);
  if (!old || old.revokedAt) return undefined;
  // The mode never changes, so generating the secret before the transaction is safe.
  const fresh = generateApiKey(old.mode);
  const rolled = await rollKey(sql, oldId, { id: newId('key'), keyHash: fresh.keyHash, prefix: fresh.prefix });
  if (!rolled) return undefined; // revoked meanwhile
  return { revoked: rolled.old, created: { row: rolled.created, secret: fresh.secret } };
}

/** A new account with its first key, in one transaction. Trial accounts default to 300 credits. */
export async function createAccountWithKey(
  db: Database,
  input: { plan: Plan; credits?: number; name?: string; mode?: KeyMode; now?: Date },
): Promise<{ account: AccountRow; key: IssuedKey }> {
  return (await db.sql.begin(async (tx) => {
    const account = await insertAccount(tx, {
      id: newId('acc'),
      name: input.name ?? 'Default account',
      plan: input.plan,
      creditBalance: input.credits ?? (input.plan === 'trial' ? TRIAL_CREDITS : 0),
      now: input.now ?? new Date(),
    });
    const key = await issueKey(tx, account.id, input.mode ?? 'live');
    return { account, key };
  })) as { account: AccountRow; key: IssuedKey };
}
