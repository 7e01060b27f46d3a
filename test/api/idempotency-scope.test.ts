import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import postgres from 'postgres';
import { issueKey } from '../../api/auth/provision.ts';
import { loadMigrations, migrate } from '../../store/migrate.ts';
import { countRenders } from '../../store/renders-repo.ts';
import { movie } from './docs.ts';
import { client, eachBackend, newAccount, startApp } from './helpers.ts';

type Body = { id: string; error?: { code: string; path?: string; message: string } };

test('Idempotency-Key: a live and a test key of one account each have their own', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro', credits: 100 });
    const testKey = await issueKey(db.sql, acc.accountId, 'test');
    const live = client(app, acc.key);
    const test = client(app, testKey.secret);
    const headers = { 'idempotency-key': 'order-42' };
    const body = { movie: movie() };

    const first = await live('POST', '/v1/renders', body, headers);
    assert.equal(first.statusCode, 201, first.body);
    const other = await test('POST', '/v1/renders', body, headers);
    assert.equal(other.statusCode, 201, `the test key's first use of the key creates: ${other.body}`);
    const liveId = first.json<Body>().id;
    const testId = other.json<Body>().id;
    assert.notEqual(testId, liveId);

    const liveReplay = await live('POST', '/v1/renders', body, headers);
    assert.equal(liveReplay.statusCode, 200);
    assert.equal(liveReplay.json<Body>().id, liveId);
    const testReplay = await test('POST', '/v1/renders', body, headers);
    assert.equal(testReplay.statusCode, 200);
    assert.equal(testReplay.json<Body>().id, testId);
    assert.equal(await countRenders(db.sql, acc.accountId), 2);

    // Within one mode a different body under the same key is still a conflict.
    const reused = await test('POST', '/v1/renders', { movie: movie(4) }, headers);
    assert.equal(reused.statusCode, 409);
    assert.equal(reused.json<Body>().error?.code, 'IDEMPOTENCY_KEY_REUSED');
  });
});

test('Idempotency-Key must be 1 to 255 printable ASCII characters', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro', credits: 100 });
    const api = client(app, acc.key);

    const longest = `${'k'.repeat(250)} ~!{}`;
    assert.equal(longest.length, 255);
    const ok = await api('POST', '/v1/renders', { movie: movie() }, { 'idempotency-key': longest });
    assert.equal(ok.statusCode, 201, ok.body);
    const replay = await api('POST', '/v1/renders', { movie: movie() }, { 'idempotency-key': longest });
    assert.equal(replay.statusCode, 200);

    for (const [name, value] of [
      ['256 characters', 'k'.repeat(256)],
      ['a tab', 'order\t42'],
      ['a non-ASCII character', 'commande-café'],
      ['a control character', 'order\u007f42'],
    ]) {
      const res = await api('POST', '/v1/renders', { movie: movie() }, { 'idempotency-key': value as string });
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      const error = res.json<Body>().error;
      assert.equal(error?.code, 'VALIDATION_ERROR', name);
      assert.equal(error?.path, 'headers.idempotency-key', name);
    }
    assert.equal(await countRenders(db.sql, acc.accountId), 1);
  });
});

test('migration 0205 gives existing records the mode of their render', {
  skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set (run scripts/test.sh)',
}, async (t) => {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `fw_idem_${randomBytes(5).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  t.after(async () => {
    await sql.end();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const all = await loadMigrations();
  await migrate(
    sql,
    all.filter((m) => m.version < '0205'),
  );
  await sql`INSERT INTO accounts (id, name, plan) VALUES ('acc_m', 'm', 'pro')`;
  for (const [id, mode] of [
    ['rnd_live', 'live'],
    ['rnd_test', 'test'],
  ]) {
    await sql`
      INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, width, height, fps,
        estimated_sec, reserved_credits, created_at, updated_at)
      VALUES (${id as string}, 'acc_m', ${mode as string}, 'key_x', 'done', 1, false, false, '{}', 16, 16, 30, 1, 0,
        now(), now())`;
  }
  await sql`
    INSERT INTO idempotency_keys (account_id, key, request_hash, resource_type, resource_id) VALUES
      ('acc_m', 'a', 'h1', 'render', 'rnd_live'),
      ('acc_m', 'b', 'h2', 'render', 'rnd_test'),
      ('acc_m', 'c', 'h3', 'render', 'rnd_gone')`;
  assert.deepEqual(
    (await migrate(sql)).filter((v) => v === '0205'),
    ['0205'],
  );
  const rows = await sql<{ key: string; mode: string }[]>`SELECT key, mode FROM idempotency_keys ORDER BY key`;
  assert.deepEqual(
    rows.map((r) => [r.key, r.mode]),
    [
      ['a', 'live'],
      ['b', 'test'],
    ],
    'a record whose render is gone is dropped',
  );
  // The same key in the other mode is a row of its own now.
  await sql`
    INSERT INTO idempotency_keys (account_id, mode, key, request_hash, resource_type, resource_id)
    VALUES ('acc_m', 'test', 'a', 'h4', 'render', 'rnd_test')`;
});
