/**
 * The one way ffmpeg and ffprobe are run, by the worker (probes, decoders, encoders, joins) and by
 * the API (POST /v1/assets checks an upload): started with `spawnTied` (they die with their
 * parent), the end of stderr kept for the error, a timeout, an AbortSignal.
 *
 * Errors are AppErrors: RENDER_FAILED naming the program, its exit code or signal and its stderr
 * tail; INSUFFICIENT_STORAGE when that stderr says the disk is full (ffmpeg reports no errno).
 * Callers that mean something else by a failure (an asset that cannot be read) map it.
 */
import type { ChildProcess } from 'node:child_process';
import { AppError } from '../errors.ts';
import { saysDiskFull } from '../platform-fault.ts';
import { spawnTied } from './tied-child.ts';

/** How much of the end of stderr is kept, and how much of it an error message shows. */
const STDERR_KEEP = 8000;
const STDERR_SHOWN = 2000;

export interface MediaToolOptions {
  /** Aborting stops the process (SIGTERM) and rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Kills the process (SIGKILL) and fails after this many milliseconds. */
  timeoutMs?: number | undefined;
  /** 'pipe' to feed it (an encoder's raw frames); default 'ignore'. */
  stdin?: 'pipe' | 'ignore';
  /** 'pipe' (default) collects stdout as the result; 'ignore' when it writes elsewhere. */
  stdout?: 'pipe' | 'ignore';
  /** Each chunk of stderr, besides the tail kept for errors (a decoder's per-frame lines). */
  onStderr?: (chunk: Buffer) => void;
  /** Names it in errors (default: the program). */
  label?: string;
}

export interface MediaProcess {
  child: ChildProcess;
  /** Resolves with its stdout when it exits 0; rejects otherwise (see above). Never unhandled. */
  done: Promise<Buffer>;
}

/** Starts ffmpeg or ffprobe (`bin`: a name on PATH or a path). */
export function startMediaTool(bin: string, args: readonly string[], options: MediaToolOptions = {}): MediaProcess {
  const { signal, timeoutMs } = options;
  const label = options.label ?? bin;
  const child = spawnTied(bin, args, {
    stdio: [options.stdin ?? 'ignore', options.stdout ?? 'pipe', 'pipe'],
    ...(signal ? { signal } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-STDERR_KEEP);
    options.onStderr?.(d);
  });
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (d: Buffer) => chunks.push(d));
  const tail = () => stderr.trim().slice(-STDERR_SHOWN);
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, timeoutMs);
  const done = new Promise<Buffer>((resolve, reject) => {
    child.once('error', (err) => {
      clearTimeout(timer);
      if (signal?.aborted) return reject(signal.reason);
      reject(new AppError('RENDER_FAILED', `${label} could not be started: ${err.message}`, { cause: err }));
    });
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      if (signal?.aborted) return reject(signal.reason);
      if (timedOut) {
        return reject(new AppError('RENDER_FAILED', `${label} did not finish within ${timeoutMs} ms: ${tail()}`));
      }
      if (code === 0) return resolve(Buffer.concat(chunks));
      if (saysDiskFull(stderr)) {
        return reject(new AppError('INSUFFICIENT_STORAGE', `The platform's disk is full: ${label} failed: ${tail()}`));
      }
      reject(new AppError('RENDER_FAILED', `${label} failed (${sig ?? `exit ${code}`}): ${tail()}`));
    });
  });
  done.catch(() => {});
  return { child, done };
}

/** Runs ffmpeg or ffprobe to completion; resolves with its stdout. */
export function runMediaTool(bin: string, args: readonly string[], options: MediaToolOptions = {}): Promise<Buffer> {
  return startMediaTool(bin, args, options).done;
}
