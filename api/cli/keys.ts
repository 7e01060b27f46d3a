import { AppError } from '../../lib/errors.ts';
import { getAccount } from '../../store/accounts-repo.ts';
import { listKeys, revokeKey } from '../../store/api-keys-repo.ts';
import type { ApiKeyRow } from '../../store/types.ts';
import { issueKey, rollApiKey } from '../auth/provision.ts';
import { emit, need, parse, runCommand, UsageError } from './common.ts';

const USAGE = `Usage:
  framewright keys create --account ACC [--mode live|test] [--json]
  framewright keys list --account ACC [--json]
  framewright keys roll --key KEY_ID [--json]      (new key first, then the old one is revoked)
  framewright keys revoke --key KEY_ID [--json]
`;

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

export async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  return runCommand(USAGE, async (open) => {
    if (sub === 'create') {
      const { values } = parse(rest, { account: { type: 'string' }, mode: { type: 'string' } });
      const accountId = need(values, 'account');
      const mode = values.mode ?? 'live';
      if (mode !== 'live' && mode !== 'test') throw new UsageError(`--mode must be live or test. Passed: ${mode}`);
      const db = await open();
      if (!(await getAccount(db.sql, accountId))) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
      const key = await issueKey(db.sql, accountId, mode);
      return emit(
        values.json as boolean,
        { ...shown(key.row), key: key.secret },
        `key ${key.row.id}: ${key.secret}\nThe key is shown once; store it now.`,
      );
    }
    if (sub === 'list') {
      const { values } = parse(rest, { account: { type: 'string' } });
      const keys = (await listKeys((await open()).sql, need(values, 'account'))).map(shown);
      const text = keys.map(
        (k) => `${k.id}  ${k.mode}  ${k.prefix}…  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`,
      );
      return emit(values.json as boolean, keys, text.join('\n') || '(no keys)');
    }
    if (sub === 'roll') {
      const { values } = parse(rest, { key: { type: 'string' } });
      const db = await open();
      const oldId = need(values, 'key');
      const rolled = await rollApiKey(db.sql, oldId);
      if (!rolled) throw new AppError('NOT_FOUND', `No active key ${oldId}.`);
      const { created } = rolled;
      return emit(
        values.json as boolean,
        { revoked: shown(rolled.revoked), created: { ...shown(created.row), key: created.secret } },
        `revoked ${oldId}\nkey ${created.row.id}: ${created.secret}\nThe key is shown once; store it now.`,
      );
    }
    if (sub === 'revoke') {
      const { values } = parse(rest, { key: { type: 'string' } });
      const id = need(values, 'key');
      const revoked = await revokeKey((await open()).sql, id);
      if (!revoked) throw new AppError('NOT_FOUND', `No active key ${id}.`);
      return emit(values.json as boolean, shown(revoked), `revoked ${id}`);
    }
    throw new UsageError(sub ? `Unknown subcommand "${sub}".` : 'A subcommand is required.');
  });
}
