import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const BIN = fileURLToPath(new URL('../../bin/framewright', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A `framewright serve` child process and everything it wrote (stdout and stderr). */
export interface ServeProcess {
  child: ChildProcess;
  log: () => string;
}

/** Starts `framewright serve` with this process's environment plus `env`. */
export function spawnServe(env: NodeJS.ProcessEnv): ServeProcess {
  return spawnFramewright(['serve'], env);
}

/** Everything `child` writes from now on, stdout and stderr together, in the order it came. */
export function outputOf(child: ChildProcess): () => string {
  let out = '';
  const add = (c: Buffer | string) => {
    out += c;
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => out;
}

/** Starts `framewright ARGS...` (serve, operator) with this process's environment plus `env`. */
export function spawnFramewright(args: string[], env: NodeJS.ProcessEnv): ServeProcess {
  const child = spawn(BIN, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, log: outputOf(child) };
}

/**
 * What a failing test should say about the process, short enough to survive a CI log's tail:
 * whether it still runs (or its exit code and signal), then its last lines that matter: errors
 * and fatals of its JSON log (message, error message and code), a signal it was sent (its
 * "shutting down" line), and anything that is not JSON (an uncaught exception's stack on stderr).
 */
export function describeProcess(served: ServeProcess, lines = 15): string {
  const { child } = served;
  const state =
    child.exitCode === null && child.signalCode === null
      ? `running (pid ${child.pid})`
      : `exited (code ${child.exitCode}, signal ${child.signalCode})`;
  const notable: string[] = [];
  for (const line of served.log().split('\n')) {
    if (!line.trim()) continue;
    let entry:
      | { level?: number; time?: string; msg?: string; signal?: string; err?: { message?: string; code?: string } }
      | undefined;
    try {
      entry = JSON.parse(line);
    } catch {}
    if (!entry || typeof entry !== 'object') notable.push(line.slice(0, 300));
    else if (entry.signal) notable.push(`${entry.time} ${entry.msg} (${entry.signal})`);
    else if ((entry.level ?? 0) >= 50) {
      const err = entry.err ? `: ${entry.err.message ?? ''}${entry.err.code ? ` (${entry.err.code})` : ''}` : '';
      notable.push(`${entry.time} ${entry.level === 60 ? 'FATAL' : 'ERROR'} ${entry.msg}${err}`.slice(0, 300));
    }
  }
  return [`the process: ${state}`, ...notable.slice(-lines)].join('\n');
}

/** Waits until `base`/readyz answers 200; throws when the process exits first or time runs out. */
export async function untilReady(served: ServeProcess, base: string, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(200)) {
    if (served.child.exitCode !== null) throw new Error(`serve exited ${served.child.exitCode}:\n${served.log()}`);
    if (Date.now() > deadline) throw new Error(`serve not ready in ${timeoutMs} ms:\n${served.log().slice(-3000)}`);
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
  }
}

/**
 * SIGTERM, then its exit code. It must exit (drained) within `timeoutMs`: a shutdown that hangs
 * is a failure too, so the process is then killed and this throws.
 */
export async function stopServe(served: ServeProcess, timeoutMs = 30_000): Promise<number | null> {
  const { child } = served;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  // The deadline must not keep this process alive once serve has exited.
  let deadline: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    deadline = setTimeout(() => resolve('late'), timeoutMs);
  });
  const code = await Promise.race([exited, late]);
  clearTimeout(deadline);
  if (code === 'late') {
    child.kill('SIGKILL');
    throw new Error(`serve did not exit within ${timeoutMs} ms of SIGTERM:\n${served.log().slice(-4000)}`);
  }
  return code;
}

/** A `serve` of a test's own: its base URL and data directory. */
export interface LocalServe extends ServeProcess {
  base: string;
  dir: string;
}

/** `framewright serve` on `databaseUrl`, on a port and data directory of its own (`extraEnv` on top). */
export async function startLocalServe(databaseUrl: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<LocalServe> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-serve-'));
  const base = `http://127.0.0.1:${port}`;
  const served = spawnServe({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    RENDER_CONCURRENCY: '1',
    LOG_LEVEL: 'info',
    ...extraEnv,
  });
  return { ...served, base, dir };
}

/** Stopped within 30 s of SIGTERM (a shutdown that hangs fails), then its directory removed. */
export async function stopLocalServe(served: LocalServe): Promise<void> {
  try {
    await stopServe(served);
  } finally {
    await rm(served.dir, { recursive: true, force: true });
  }
}

/**
 * Runs `fn`; a failure says what serve saw: whether it still runs, and its errors and anything
 * it wrote that is not JSON (a crash's stack). That goes last in the error's stack, where the
 * tail of a CI log still shows it, and the error's cause goes before it.
 */
export async function withServeLog(served: ServeProcess, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    const cause = error.cause instanceof Error ? `\ncaused by: ${error.cause.message}` : '';
    error.stack = `${error.stack}${cause}\n--- serve ---\n${describeProcess(served)}`;
    delete error.cause;
    throw error;
  }
}
