import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import postgres from 'postgres';

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
  assert.match(bad.err, /--plan must be one of/);
  const missing = await cli(['credits', 'grant', '--account', 'acc_nope', '--amount', '5'], env);
  assert.equal(missing.code, 23);
});

test('serve: first start creates a trial account and prints its key once; SIGTERM exits 0', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-serve-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const port = await freePort();
  const start = (): { child: ChildProcess; output: () => string } => {
    const child = spawn(BIN, ['serve'], {
      env: {
        ...process.env,
        DATA_DIR: dir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.stderr?.on('data', (d) => {
      out += d;
    });
    return { child, output: () => out };
  };
  const waitReady = async () => {
    // Generous: a cold PGlite start takes tens of seconds on a loaded 2-core machine.
    for (let i = 0; i < 900; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('serve did not start');
  };
  const stop = async (child: ChildProcess) => {
    const code = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    child.kill('SIGTERM');
    return code;
  };

  const first = start();
  await waitReady();
  const key = /API key \(shown once, store it now\): (fw_live_[0-9A-Za-z]{40})/.exec(first.output())?.[1];
  assert.ok(key, first.output());
  const usage = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(usage.status, 200);
  const body = (await usage.json()) as { plan: string; credits: { balance: number } };
  assert.equal(body.plan, 'trial');
  assert.equal(body.credits.balance, 300);
  assert.equal(await stop(first.child), 0);

  const second = start();
  await waitReady();
  assert.equal(second.output().includes('API key'), false, 'the key is printed on the first start only');
  const again = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(again.status, 200);
  assert.equal(await stop(second.child), 0);
});
