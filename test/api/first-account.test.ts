import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { freePort } from '../services/free-port.ts';
import { describeProcess, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';

const BIN = new URL('../../bin/framewright', import.meta.url).pathname;

/**
 * Issue 28: `serve` on an empty PostgreSQL database (DATABASE_URL: a cluster, a deployment) used
 * to create a trial account and print its live key into its output, which a cluster sends to
 * every log pipeline. Now it makes none and says, in JSON, how to make the first; the CLI makes
 * it. (The embedded database of `make run` still makes one and shows its key: test/api/cli.test.ts.)
 */
test('serve with DATABASE_URL on an empty database: no account, no key in the log, every line JSON', {
  skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL (make test-only starts PostgreSQL)',
}, async (t) => {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `fw_first_${randomBytes(5).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const port = await freePort();
  const served = spawnServe({
    DATABASE_URL: url.toString(),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  });
  t.after(async () => {
    await stopServe(served).catch(() => {});
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const api = `http://127.0.0.1:${port}`;
  await untilReady(served, api, 120_000);

  const log = served.log();
  assert.doesNotMatch(log, /fw_(live|test)_[0-9A-Za-z]{40}/, 'no key in the log');
  const entries = log
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as { msg?: string };
      } catch {
        return assert.fail(`a line that is not JSON: ${line}\n${describeProcess(served)}`);
      }
    });
  assert.ok(
    entries.some((e) => /no accounts yet: create the first with `framewright accounts create/.test(e.msg ?? '')),
    log,
  );
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const [count] = await db<{ n: number }[]>`SELECT count(*)::int AS n FROM accounts`;
  await db.end();
  assert.equal(count?.n, 0, 'no account was made');

  // The first key, as NOTES says (kubectl exec ... framewright accounts create), works at once.
  const { stdout } = await promisify(execFile)(BIN, ['accounts', 'create', '--plan', 'pro', '--json'], {
    env: { ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' },
  });
  const { key } = JSON.parse(stdout) as { key: string };
  const usage = await fetch(`${api}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(usage.status, 200);
});
