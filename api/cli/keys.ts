import { AppError } from '../../lib/errors.ts';
import { getAccount } from '../../store/accounts-repo.ts';
import { listKeys, revokeKey } from '../../store/api-keys-repo.ts';
import type { ApiKeyRow, KeyMode } from '../../store/types.ts';
import { issueKey, rollApiKey } from '../auth/provision.ts';
import { type AccountOptions, emit, runCommand } from './common.ts';

export interface KeysCreateOptions {
  account: string;
  mode: KeyMode;
  json?: boolean;
}

export interface KeyOptions {
  key: string;
  json?: boolean;
}

function shown(k: ApiKeyRow) {
  return {
    id: k.id,
    accountId: k.accountId,
    mode: k.mode,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
    replacedBy: k.replacedBy,
    lastUsedAt: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  };
}

/** `framewright keys create`: a key for the account, shown once. */
export function create(o: KeysCreateOptions): Promise<number> {
  return runCommand(async (open) => {
    const db = await open();
    if (!(await getAccount(db.sql, o.account))) throw new AppError('NOT_FOUND', `No account ${o.account}.`);
    const key = await issueKey(db.sql, o.account, o.mode);
    return emit(
      o.json,
      { ...shown(key.row), key: key.secret },
      `key ${key.row.id}: ${key.secret}\nThe key is shown once; store it now.`,
    );
  });
}

/** `framewright keys list`: the account's keys, without secrets. */
export function list(o: AccountOptions): Promise<number> {
  return runCommand(async (open) => {
    const keys = (await listKeys((await open()).sql, o.account)).map(shown);
    const text = keys.map(
      (k) => `${k.id}  ${k.mode}  ${k.prefix}…  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`,
    );
    return emit(o.json, keys, text.join('\n') || '(no keys)');
  });
}

/** `framewright keys roll`: the new key first (shown once), then the old one is revoked. */
export function roll(o: KeyOptions): Promise<number> {
  return runCommand(async (open) => {
    const rolled = await rollApiKey((await open()).sql, o.key);
    if (!rolled) throw new AppError('NOT_FOUND', `No active key ${o.key}.`);
    const { created } = rolled;
    return emit(
      o.json,
      { revoked: shown(rolled.revoked), created: { ...shown(created.row), key: created.secret } },
      `revoked ${o.key}\nkey ${created.row.id}: ${created.secret}\nThe key is shown once; store it now.`,
    );
  });
}

/** `framewright keys revoke`. */
export function revoke(o: KeyOptions): Promise<number> {
  return runCommand(async (open) => {
    const revoked = await revokeKey((await open()).sql, o.key);
    if (!revoked) throw new AppError('NOT_FOUND', `No active key ${o.key}.`);
    return emit(o.json, shown(revoked), `revoked ${o.key}`);
  });
}
