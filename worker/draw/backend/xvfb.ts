import type { ChildProcess } from 'node:child_process';
import { AppError } from '../../../lib/errors.ts';
import type { Logger } from '../../../lib/logger.ts';
import { spawnTied } from '../../../lib/process/tied-child.ts';

/** An X display for headless-gl: the caller's own, or an Xvfb we started and must stop. */
export interface Display {
  /** Value for DISPLAY, e.g. `:99`. */
  name: string;
  /** Rejects when our Xvfb dies before `stop()`, so a render never waits on a dead X server. */
  died: Promise<never>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;

/**
 * Uses `DISPLAY` when set; otherwise starts Xvfb on a free display number, which Xvfb picks
 * itself and reports through `-displayfd` (no guessing, no races with other renders).
 */
export async function ensureDisplay(env: NodeJS.ProcessEnv, logger?: Logger): Promise<Display> {
  if (env.DISPLAY) {
    return { name: env.DISPLAY, died: new Promise<never>(() => {}), stop: async () => {} };
  }
  const child = spawnTied('Xvfb', ['-displayfd', '3', '-screen', '0', '64x64x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const name = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new AppError('RENDER_FAILED', `Xvfb did not start within ${START_TIMEOUT_MS} ms: ${stderr.trim()}`));
    }, START_TIMEOUT_MS);
    child.stdio[3]?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${out.trim()}`);
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new AppError('RENDER_FAILED', `Xvfb could not be started: ${err.message}`, { cause: err }));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new AppError('RENDER_FAILED', `Xvfb exited (${signal ?? code}) before it was ready: ${stderr.trim()}`));
    });
  });
  logger?.debug({ display: name, pid: child.pid }, 'started Xvfb');
  let stopping = false;
  const died = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => {
      if (!stopping) reject(new AppError('RENDER_FAILED', `Xvfb died (${signal ?? code}): ${stderr.trim()}`));
    });
  });
  died.catch(() => {});
  return { name, died, stop: () => stopChild(child, () => (stopping = true)) };
}

async function stopChild(child: ChildProcess, mark: () => void): Promise<void> {
  mark();
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}
