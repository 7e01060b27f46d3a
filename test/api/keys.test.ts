import assert from 'node:assert/strict';
import { test } from 'node:test';
import postgres from 'postgres';
import { hashApiKey } from '../../api/auth/api-key.ts';
import { LastUsedRecorder } from '../../api/auth/last-used.ts';
import { issueKey } from '../../api/auth/provision.ts';
import { newId } from '../../lib/ids.ts';
import { freePort } from '../services/free-port.ts';
import { client, eachBackend, newAccount, startApp, testConfig } from './helpers.ts';

type Key = {
  id: string;
  mode: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  replacedBy: string | null;
  current: boolean;
  secret?: string;
};
type ErrorBody = { error: { code: string; message: string; path?: string }; requestId: string };

test('/v1/keys', async (t) => {
  await eachBackend(t, async (t, db) => {
    // The key cache is on, as in production: revocation must still take effect at once.
    const app = await startApp(db, { config: testConfig({ authCacheTtlMs: 60_000 }) });
    t.after(() => app.close());

    await t.test('create shows the secret once; the key works; lists and fetches never show it', async () => {
      const acc = await newAccount(db);
      const api = client(app, acc.key);
      const created = await api('POST', '/v1/keys', { mode: 'test' });
      assert.equal(created.statusCode, 201);
      assert.ok(created.headers['x-ratelimit-limit'], 'rate-limited like every authenticated route');
      const key = created.json<Key>();
      assert.match(key.secret!, /^fw_test_[0-9A-Za-z]{40}$/);
      assert.equal(key.prefix, key.secret!.slice(0, 12));
      assert.equal(key.mode, 'test');
      assert.equal(key.current, false);
      assert.equal(key.revokedAt, null);
      const stored = await db.sql<{ keyHash: string }[]>`SELECT key_hash FROM api_keys WHERE id = ${key.id}`;
      assert.equal(stored[0]?.keyHash, hashApiKey(key.secret!), 'only the hash is stored');
      assert.equal((await client(app, key.secret!)('GET', '/v1/usage')).json().mode, 'test');

      // No body: a key of the caller's own mode.
      const plain = await app.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { authorization: `Bearer ${acc.key}` },
      });
      assert.equal(plain.statusCode, 201, plain.body);
      assert.equal(plain.json<Key>().mode, 'live');

      const list = await api('GET', '/v1/keys');
      assert.equal(list.statusCode, 200);
      const { items, total } = list.json<{ items: Key[]; total: number }>();
      assert.equal(total, 3);
      assert.deepEqual(
        items.map((k) => k.id),
        [plain.json<Key>().id, key.id, acc.keyId],
        'newest first',
      );
      assert.deepEqual(
        items.map((k) => k.current),
        [false, false, true],
      );
      assert.ok(!list.body.includes(key.secret!) && !list.body.includes('secret'));
      const got = await api('GET', `/v1/keys/${key.id}`);
      assert.equal(got.statusCode, 200);
      const { secret: _shownOnce, ...rest } = key;
      assert.deepEqual({ ...got.json<Key>(), lastUsedAt: null }, { ...rest, lastUsedAt: null });
    });

    await t.test('revoke: the key is refused at once, through the API, and stays listed', async () => {
      const acc = await newAccount(db);
      const api = client(app, acc.key);
      const other = (await api('POST', '/v1/keys', { mode: 'live' })).json<Key>();
      const otherApi = client(app, other.secret!);
      assert.equal((await otherApi('GET', '/v1/usage')).statusCode, 200, 'now cached');
      const revoked = await api('DELETE', `/v1/keys/${other.id}`);
      assert.equal(revoked.statusCode, 200);
      assert.ok(revoked.json<Key>().revokedAt);
      assert.equal((await otherApi('GET', '/v1/usage')).statusCode, 401, 'refused the moment revoke answered');
      const again = await api('DELETE', `/v1/keys/${other.id}`);
      assert.equal(again.statusCode, 200, 'revoking a revoked key answers it unchanged');
      assert.equal(again.json<Key>().revokedAt, revoked.json<Key>().revokedAt);
      const roll = await api('POST', `/v1/keys/${other.id}/roll`);
      assert.equal(roll.statusCode, 404, 'a revoked key cannot be rolled');
      const active = (await api('GET', '/v1/keys?status=active')).json<{ items: Key[] }>().items;
      const gone = (await api('GET', '/v1/keys?status=revoked')).json<{ items: Key[] }>().items;
      assert.deepEqual(
        active.map((k) => k.id),
        [acc.keyId],
      );
      assert.deepEqual(
        gone.map((k) => k.id),
        [other.id],
      );
      // A key may revoke itself: the answer still comes, the next request is refused.
      const self = await api('DELETE', `/v1/keys/${acc.keyId}`);
      assert.equal(self.statusCode, 200);
      assert.equal(self.json<Key>().current, true);
      assert.equal((await api('GET', '/v1/keys')).statusCode, 401);
    });

    await t.test('roll: the replacement works, the old key is refused at once, same mode', async () => {
      const acc = await newAccount(db, { mode: 'test' });
      const api = client(app, acc.key);
      assert.equal((await api('GET', '/v1/usage')).statusCode, 200, 'now cached');
      const res = await api('POST', `/v1/keys/${acc.keyId}/roll`);
      assert.equal(res.statusCode, 201);
      const { created, revoked } = res.json<{ created: Key; revoked: Key }>();
      assert.equal(created.mode, 'test');
      assert.match(created.secret!, /^fw_test_/);
      assert.equal(revoked.id, acc.keyId);
      assert.equal(revoked.replacedBy, created.id);
      assert.equal(revoked.current, true);
      assert.ok(revoked.revokedAt);
      assert.ok(Date.parse(created.createdAt) <= Date.parse(revoked.revokedAt!), 'the new key first');
      assert.equal((await api('GET', '/v1/usage')).statusCode, 401);
      const fresh = client(app, created.secret!);
      assert.equal((await fresh('GET', '/v1/usage')).statusCode, 200);
      const mine = (await fresh('GET', `/v1/keys/${created.id}`)).json<Key>();
      assert.equal(mine.current, true);
    });

    await t.test("another account's key is NOT_FOUND, exactly as an unknown id; nothing changes", async () => {
      const a = await newAccount(db);
      const b = await newAccount(db);
      const api = client(app, a.key);
      const unknown = newId('key');
      const same = (res: { body: string; json<T>(): T }, id: string) =>
        res.body.replace(res.json<ErrorBody>().requestId, 'REQ').replaceAll(id, 'ID');
      for (const [method, suffix] of [
        ['GET', ''],
        ['DELETE', ''],
        ['POST', '/roll'],
      ] as const) {
        const theirs = await api(method, `/v1/keys/${b.keyId}${suffix}`);
        const none = await api(method, `/v1/keys/${unknown}${suffix}`);
        assert.equal(theirs.statusCode, 404, `${method} ${suffix}`);
        assert.equal(theirs.json<ErrorBody>().error.code, 'NOT_FOUND');
        assert.equal(same(theirs, b.keyId), same(none, unknown), `${method} ${suffix}`);
      }
      const list = (await api('GET', '/v1/keys')).json<{ items: Key[] }>().items;
      assert.deepEqual(
        list.map((k) => k.id),
        [a.keyId],
      );
      assert.equal((await client(app, b.key)('GET', '/v1/usage')).statusCode, 200, "b's key still works");
      assert.equal((await api('GET', '/v1/keys/not-a-key-id')).statusCode, 404);
    });

    await t.test('a test key manages test keys only', async () => {
      const acc = await newAccount(db);
      const testKey = await issueKey(db.sql, acc.accountId, 'test');
      const api = client(app, testKey.secret);
      const live = await api('POST', '/v1/keys', { mode: 'live' });
      assert.equal(live.statusCode, 400);
      assert.deepEqual(
        [live.json<ErrorBody>().error.code, live.json<ErrorBody>().error.path],
        ['VALIDATION_ERROR', 'mode'],
      );
      assert.deepEqual(
        (await api('GET', '/v1/keys')).json<{ items: Key[] }>().items.map((k) => k.id),
        [testKey.row.id],
      );
      assert.equal((await api('GET', `/v1/keys/${acc.keyId}`)).statusCode, 404);
      assert.equal((await api('DELETE', `/v1/keys/${acc.keyId}`)).statusCode, 404);
      assert.equal((await api('POST', `/v1/keys/${acc.keyId}/roll`)).statusCode, 404);
      assert.equal((await client(app, acc.key)('GET', '/v1/usage')).statusCode, 200, 'the live key is untouched');
      // A live key manages both.
      const all = (await client(app, acc.key)('GET', '/v1/keys')).json<{ items: Key[] }>().items;
      assert.deepEqual(all.map((k) => k.mode).sort(), ['live', 'test']);
    });

    await t.test('bad input: the catalogue code at the exact path, never a 5xx', async () => {
      const acc = await newAccount(db);
      const api = client(app, acc.key);
      const cases: [string, string, unknown, string][] = [
        ['GET', '/v1/keys?page_size=0', undefined, 'page_size'],
        ['GET', '/v1/keys?page=0', undefined, 'page'],
        ['GET', '/v1/keys?status=gone', undefined, 'status'],
        ['GET', '/v1/keys?colour=red', undefined, 'colour'],
        ['POST', '/v1/keys', { mode: 'staging' }, 'mode'],
        ['POST', '/v1/keys', { mode: 'test', name: 'ci' }, 'name'],
        ['POST', '/v1/keys', [], ''],
      ];
      for (const [method, url, body, path] of cases) {
        const res = await api(method as 'GET', url, body);
        assert.equal(res.statusCode, 400, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`);
        const err = res.json<ErrorBody>().error;
        assert.equal(err.code, 'VALIDATION_ERROR');
        assert.equal(err.path ?? '', path, `${method} ${url} ${JSON.stringify(body)}`);
      }
      const broken = await app.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { authorization: `Bearer ${acc.key}`, 'content-type': 'application/json' },
        payload: '{"mode":',
      });
      assert.equal(broken.statusCode, 400);
      assert.equal((await api('PUT', '/v1/keys')).statusCode, 405);
      assert.equal((await client(app, null)('GET', '/v1/keys')).statusCode, 401);
    });
  });
});

test('last used: written on first use, then at most once a minute per key', async (t) => {
  await eachBackend(t, async (t, db) => {
    let clock = Date.parse('2026-11-24T10:00:00.000Z');
    const app = await startApp(db, { config: testConfig({ authCacheTtlMs: 60_000 }), now: () => new Date(clock) });
    t.after(() => app.close());
    const acc = await newAccount(db);
    const api = client(app, acc.key);
    const stored = async () =>
      (
        await db.sql<{ lastUsedAt: Date | null }[]>`SELECT last_used_at FROM api_keys WHERE id = ${acc.keyId}`
      )[0]?.lastUsedAt?.toISOString() ?? null;
    /** The write does not hold the request up: it lands a moment later. */
    const until = async (want: string) => {
      for (let i = 0; i < 100 && (await stored()) !== want; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(await stored(), want);
    };
    assert.equal(await stored(), null, 'never used');
    await api('GET', '/v1/usage');
    await until('2026-11-24T10:00:00.000Z');
    clock += 30_000;
    for (let i = 0; i < 5; i++) await api('GET', '/v1/usage');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await stored(), '2026-11-24T10:00:00.000Z', 'no write within the minute');
    clock += 31_000;
    await api('GET', '/v1/usage');
    await until('2026-11-24T10:01:01.000Z');
    const shown = (await api('GET', `/v1/keys/${acc.keyId}`)).json<Key>();
    assert.equal(shown.lastUsedAt, '2026-11-24T10:01:01.000Z');
    // A second process (another app on the same database) that used the key a moment ago does
    // not write again: the SQL only moves a stamp a minute old or more.
    const second = await startApp(db, { config: testConfig(), now: () => new Date(clock + 20_000) });
    t.after(() => second.close());
    await client(second, acc.key)('GET', '/v1/usage');
    await second.close();
    assert.equal(await stored(), '2026-11-24T10:01:01.000Z');
  });
});

test('last used: a write the database refuses is logged, holds nothing up, and is tried again', async () => {
  // A real client whose server is gone: nothing listens on the port (the database is down).
  const port = await freePort();
  const sql = postgres(`postgres://framewright@127.0.0.1:${port}/framewright`, {
    max: 1,
    connect_timeout: 2,
    onnotice: () => {},
  });
  const errors: unknown[] = [];
  const recorder = new LastUsedRecorder(sql, (err) => errors.push(err));
  const t0 = Date.parse('2026-11-24T10:00:00.000Z');
  try {
    recorder.touch('key_a', t0);
    await recorder.settle();
    assert.equal(errors.length, 1, 'the failure reaches onError, not an unhandled rejection');
    assert.match(String((errors[0] as Error).message ?? errors[0]), /ECONNREFUSED|connect/i);
    // Within the same minute: the failed write is not counted as written, so it is tried again.
    recorder.touch('key_a', t0 + 1_000);
    await recorder.settle();
    assert.equal(errors.length, 2);
  } finally {
    await sql.end({ timeout: 1 });
  }
});
