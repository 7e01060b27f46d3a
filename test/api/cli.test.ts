import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { type ServeProcess, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/framewright', import.meta.url).pathname;

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(BIN, args, { env: { ...process.env, ...env } });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
  }
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

test('CLI: accounts, keys, credits with --json on PostgreSQL', { skip: !process.env.TEST_DATABASE_URL }, async (t) => {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `fw_cli_${randomBytes(5).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  t.after(async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' };

  const created = await cli(
    ['accounts', 'create', '--plan', 'starter', '--credits', '50', '--name', 'Acme', '--json'],
    env,
  );
  assert.equal(created.code, 0, created.err);
  const acc = JSON.parse(created.out);
  assert.match(acc.accountId, /^acc_/);
  assert.match(acc.key, /^fw_live_[0-9A-Za-z]{40}$/);
  assert.equal(acc.credits, 50);
  assert.match(acc.webhookSecret, /^whsec_[A-Za-z0-9+/]{43}=$/);

  const shown = JSON.parse((await cli(['webhooks', 'secret', '--account', acc.accountId, '--json'], env)).out);
  assert.equal(shown.webhookSecret, acc.webhookSecret);
  const rotated = JSON.parse((await cli(['webhooks', 'rotate-secret', '--account', acc.accountId, '--json'], env)).out);
  assert.notEqual(rotated.webhookSecret, acc.webhookSecret);
  assert.equal(
    JSON.parse((await cli(['webhooks', 'secret', '--account', acc.accountId, '--json'], env)).out).webhookSecret,
    rotated.webhookSecret,
  );
  const noAccount = await cli(['webhooks', 'rotate-secret', '--account', 'acc_nope'], env);
  assert.notEqual(noAccount.code, 0);
  assert.match(noAccount.err, /NOT_FOUND/);

  const granted = JSON.parse(
    (await cli(['credits', 'grant', '--account', acc.accountId, '--amount', '25', '--json'], env)).out,
  );
  assert.equal(granted.balance, 75);
  const plan = JSON.parse(
    (await cli(['accounts', 'set-plan', '--account', acc.accountId, '--plan', 'pro', '--json'], env)).out,
  );
  assert.equal(plan.plan, 'pro');

  const testKey = JSON.parse(
    (await cli(['keys', 'create', '--account', acc.accountId, '--mode', 'test', '--json'], env)).out,
  );
  assert.match(testKey.key, /^fw_test_/);
  const rolled = JSON.parse((await cli(['keys', 'roll', '--key', acc.keyId, '--json'], env)).out);
  assert.equal(rolled.revoked.id, acc.keyId);
  assert.equal(rolled.revoked.replacedBy, rolled.created.id);
  const revoked = JSON.parse((await cli(['keys', 'revoke', '--key', testKey.id, '--json'], env)).out);
  assert.ok(revoked.revokedAt);
  const list = JSON.parse((await cli(['keys', 'list', '--account', acc.accountId, '--json'], env)).out) as {
    id: string;
    revokedAt: string | null;
  }[];
  // Rolled and revoked keys are inactive; the replacement is the only active one.
  assert.deepEqual(
    list.map((k) => [k.id, k.revokedAt === null]),
    [
      [acc.keyId, false],
      [testKey.id, false],
      [rolled.created.id, true],
    ],
  );
  assert.doesNotMatch(JSON.stringify(list), /fw_(live|test)_[0-9A-Za-z]{40}/, 'lists never show secrets');

  const bad = await cli(['accounts', 'create', '--plan', 'gold'], env);
  assert.equal(bad.code, 2);
  assert.match(
    bad.err,
    /option '--plan <plan>' argument 'gold' is invalid\. Allowed choices are trial, starter, pro, studio\./,
  );
  const missing = await cli(['credits', 'grant', '--account', 'acc_nope', '--amount', '5'], env);
  assert.equal(missing.code, 23);
});

/** `framewright serve` on the embedded database in `dir`, its output collected. */
function startServe(dir: string, port: number, env: Record<string, string> = {}): ServeProcess {
  return spawnServe({
    DATA_DIR: dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    ...env,
  });
}

/** Generous: a cold PGlite start takes tens of seconds on a loaded 2-core machine. */
const waitReady = (port: number, served: ServeProcess) => untilReady(served, `http://127.0.0.1:${port}`, 180_000);

test('serve: first start creates a trial account and prints its key once; SIGTERM exits 0', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-serve-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const port = await freePort();
  const start = () => startServe(dir, port);
  const stop = stopServe;

  const first = start();
  await waitReady(port, first);
  const key = /API key \(shown once, store it now\): (fw_live_[0-9A-Za-z]{40})/.exec(first.log())?.[1];
  assert.ok(key, first.log());
  const usage = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(usage.status, 200);
  const body = (await usage.json()) as { plan: string; credits: { balance: number } };
  assert.equal(body.plan, 'trial');
  assert.equal(body.credits.balance, 300);
  assert.equal(await stop(first), 0);

  const second = start();
  await waitReady(port, second);
  assert.equal(second.log().includes('API key'), false, 'the key is printed on the first start only');
  const again = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(again.status, 200);
  assert.equal(await stop(second), 0);
});

test('CLI while `serve` runs on the embedded database: every command goes through the server', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-serve-cli-'));
  const port = await freePort();
  // The default key cache (60 s): a revocation or plan change must reach the server's cache.
  const server = startServe(dir, port, { RENDER_CONCURRENCY: '1', AUTH_CACHE_TTL_MS: '60000' });
  t.after(async () => {
    await stopServe(server);
    await rm(dir, { recursive: true, force: true });
  });
  const env = { DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  const base = `http://127.0.0.1:${port}`;
  const usage = async (key: string) => {
    const res = await fetch(`${base}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as { plan: string; credits: { balance: number } } };
  };
  const ok = async (args: string[]) => {
    const r = await cli([...args, '--json'], env);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    return JSON.parse(r.out);
  };
  await waitReady(port, server);

  // Where the server's database listens, with its password: for this user's eyes only.
  const sharedFile = path.join(dir, 'pg.server.json');
  assert.equal((await stat(sharedFile)).mode & 0o777, 0o600);
  const shared = JSON.parse(await readFile(sharedFile, 'utf8')) as { host: string; port: number };
  assert.equal(shared.host, '127.0.0.1');
  // Any local user reaches the port; without the password nothing is answered.
  const stranger = postgres({ host: shared.host, port: shared.port, user: 'postgres', max: 1, onnotice: () => {} });
  await assert.rejects(stranger`SELECT 1`, (err: { code?: string }) => err.code === '28P01');
  await stranger.end();

  const acc = await ok(['accounts', 'create', '--plan', 'starter', '--credits', '50']);
  assert.equal((await usage(acc.key)).status, 200, 'the new key works on the running server');
  // Two at once: each CLI process is one more connection to the server's database.
  const [key2, secret] = await Promise.all([
    ok(['keys', 'create', '--account', acc.accountId]),
    ok(['webhooks', 'secret', '--account', acc.accountId]),
  ]);
  assert.equal(secret.webhookSecret, acc.webhookSecret);
  assert.equal((await usage(key2.key)).status, 200, 'verified now, so cached by the server');
  await ok(['keys', 'revoke', '--key', key2.id]);
  assert.equal((await usage(key2.key)).status, 401, 'revoked from the CLI: refused at once, cache or not');

  const before = await usage(acc.key);
  assert.deepEqual([before.body.plan, before.body.credits.balance], ['starter', 50]);
  assert.equal((await ok(['credits', 'grant', '--account', acc.accountId, '--amount', '25'])).balance, 75);
  assert.equal((await ok(['accounts', 'set-plan', '--account', acc.accountId, '--plan', 'pro'])).plan, 'pro');
  const after = await usage(acc.key);
  assert.deepEqual([after.body.plan, after.body.credits.balance], ['pro', 75], 'the cached key carries the new plan');

  // Stopped, the server takes its lock and file away; the CLI opens the database itself again.
  assert.equal(await stopServe(server), 0, server.log());
  assert.equal(existsSync(sharedFile), false);
  assert.equal(existsSync(path.join(dir, 'pg.lock')), false);
  const keys = (await ok(['keys', 'list', '--account', acc.accountId])) as { id: string; revokedAt: string | null }[];
  assert.deepEqual(
    keys.map((k) => [k.id, k.revokedAt === null]),
    [
      [acc.keyId, true],
      [key2.id, false],
    ],
  );
});
