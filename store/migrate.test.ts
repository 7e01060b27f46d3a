import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import postgres from 'postgres';
import { createLogger } from '../lib/logger.ts';
import { openDatabase } from './database.ts';
import { loadMigrations, migrate } from './migrate.ts';

const logger = createLogger({ level: 'silent' });

test('migration files are numbered NNNN_name.sql in order', async () => {
  const list = await loadMigrations();
  assert.ok(list.length >= 1);
  assert.deepEqual(
    list.map((m) => m.version),
    [...list.map((m) => m.version)].sort(),
  );
  assert.equal(list[0]?.version, '0001');
});

test('PostgreSQL: two processes migrating at once apply each migration once', {
  skip: !process.env.TEST_DATABASE_URL,
}, async (t) => {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `fw_mig_${randomBytes(5).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  // Two separate clients stand for two processes starting together.
  const a = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const b = postgres(url.toString(), { max: 1, onnotice: () => {} });
  t.after(async () => {
    await a.end();
    await b.end();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
  const all = (await loadMigrations()).map((m) => m.version);
  assert.deepEqual([...ra, ...rb].sort(), all);
  assert.deepEqual(await migrate(a), [], 'a second run applies nothing');
  const rows = await a`SELECT version FROM schema_migrations ORDER BY version`;
  assert.deepEqual(
    rows.map((r) => r.version),
    all,
  );
});

test('a failing migration leaves nothing behind', { skip: !process.env.TEST_DATABASE_URL }, async (t) => {
  const sql = postgres(process.env.TEST_DATABASE_URL as string, { max: 1, onnotice: () => {} });
  const schema = `fw_fail_${randomBytes(4).toString('hex')}`;
  await sql.unsafe(`CREATE SCHEMA ${schema}`);
  t.after(async () => {
    await sql.unsafe(`DROP SCHEMA ${schema} CASCADE`);
    await sql.end();
  });
  await sql.unsafe(`SET search_path TO ${schema}`);
  const broken = [
    { version: '0001', name: 'ok', sql: 'CREATE TABLE t1 (id int);' },
    { version: '0002', name: 'broken', sql: 'CREATE TABLE t2 (id int); SELECT nope FROM nowhere;' },
  ];
  await assert.rejects(migrate(sql, broken));
  const tables = await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = ${schema}`;
  assert.equal(tables.length, 0);
});

test('PGlite: data and migrations persist across restarts in DATA_DIR', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-mig-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = await openDatabase({ dataDir: dir, logger });
  await first.sql`INSERT INTO accounts (id, name, plan) VALUES ('acc_x', 'x', 'trial')`;
  await first.close();
  const second = await openDatabase({ dataDir: dir, logger });
  t.after(() => second.close());
  assert.deepEqual(await migrate(second.sql), []);
  const [row] = await second.sql`SELECT name FROM accounts WHERE id = 'acc_x'`;
  assert.equal(row?.name, 'x');
});

test('PGlite: a second process cannot open the same DATA_DIR while the first has it', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-lock-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = await openDatabase({ dataDir: dir, logger });
  t.after(() => first.close());
  // Another process holding the lock is simulated by the lock file naming a live pid (our parent).
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path.join(dir, 'pg.lock'), String(process.ppid));
  await assert.rejects(openDatabase({ dataDir: dir, logger }), /in use by process/);
  await writeFile(path.join(dir, 'pg.lock'), String(process.pid));
});
