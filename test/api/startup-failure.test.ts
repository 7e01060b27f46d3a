import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { STARTUP_FAILED_MESSAGE } from '../../lib/shutdown.ts';
import { describeProcess, type ServeProcess, spawnFramewright } from '../services/serve-process.ts';

/**
 * Issue 28: a start-up that fails (here a port taken) must end the process at once with a
 * non-zero code and say why in one JSON line. It used to print a plain `framewright: Error:
 * listen EADDRINUSE` and hang for ever (its database pool kept it alive), serving nothing, until
 * a pod's startup probe gave up after minutes.
 */

const BIN = new URL('../../bin/framewright', import.meta.url).pathname;

/** Generous for a cold start from the TypeScript sources on a loaded machine; a hang never ends. */
const EXIT_WITHIN_MS = 30_000;

async function takePort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

async function exitOf(served: ServeProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  const { child } = served;
  if (child.exitCode !== null) return { code: child.exitCode, ms: 0 };
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c))),
    new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), EXIT_WITHIN_MS);
    }),
  ]);
  clearTimeout(timer);
  if (code === 'hung') {
    const said = describeProcess(served);
    child.kill('SIGKILL');
    assert.fail(`still running ${EXIT_WITHIN_MS} ms after its start-up failed:\n${said}`);
  }
  return { code, ms: Date.now() - started };
}

/** Every line written is one JSON object, and one of them is the fatal start-up line naming `code`. */
function assertJsonFatal(served: ServeProcess, code: string): void {
  const lines = served
    .log()
    .split('\n')
    .filter((l) => l.trim() !== '');
  const entries = lines.map((line) => {
    try {
      return JSON.parse(line) as { level?: number; msg?: string; err?: { code?: string; message?: string } };
    } catch {
      return assert.fail(`a line that is not JSON: ${line}\n--- all output:\n${served.log()}`);
    }
  });
  const fatal = entries.find((e) => e.level === 60 && e.msg === STARTUP_FAILED_MESSAGE);
  assert.ok(fatal, `no fatal start-up line:\n${served.log()}`);
  assert.equal(fatal.err?.code, code, JSON.stringify(fatal));
}

test('serve and operator: a port taken at start-up ends the process at once, non-zero, in JSON', {
  skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL (make test-only starts PostgreSQL)',
}, async (t) => {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `fw_startup_${randomBytes(5).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const taken = await takePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-startup-'));
  t.after(async () => {
    taken.server.close();
    await rm(dir, { recursive: true, force: true });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), DATA_DIR: dir, HOST: '0.0.0.0', LOG_LEVEL: 'info' };
  // An account exists, as on a cluster where the platform team made its first: serve has no
  // reason to print anything but its log.
  await promisify(execFile)(BIN, ['accounts', 'create', '--plan', 'trial', '--json'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
  });
  const free = async () => {
    const p = await takePort();
    await new Promise((r) => p.server.close(r));
    return String(p.port);
  };

  await t.test('serve, PORT taken', async () => {
    const served = spawnFramewright(['serve'], { ...env, PORT: String(taken.port) });
    const { code, ms } = await exitOf(served);
    assert.equal(code, 1, describeProcess(served));
    assertJsonFatal(served, 'EADDRINUSE');
    t.diagnostic(`serve with PORT taken exited ${code} after ${ms} ms`);
  });

  await t.test('serve, METRICS_PORT taken', async () => {
    const served = spawnFramewright(['serve'], { ...env, PORT: await free(), METRICS_PORT: String(taken.port) });
    const { code } = await exitOf(served);
    assert.equal(code, 1, describeProcess(served));
    assertJsonFatal(served, 'EADDRINUSE');
  });

  await t.test('operator, OPERATOR_METRICS_PORT taken', async () => {
    // Nothing is asked of this cluster before the metrics port: an address that answers nothing.
    const kubeconfig = path.join(dir, 'kubeconfig');
    await writeFile(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]',
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
        '',
      ].join('\n'),
    );
    const served = spawnFramewright(['operator'], {
      ...env,
      KUBECONFIG: kubeconfig,
      OPERATOR_METRICS_PORT: String(taken.port),
    });
    const { code } = await exitOf(served);
    assert.equal(code, 1, describeProcess(served));
    assertJsonFatal(served, 'EADDRINUSE');
  });
});
