/**
 * The typed boundary between an executor and a worker process. The executor forks
 * `framewright worker` with an IPC channel and sends `job`s one at a time; for each it receives
 * progress and one outcome, and the worker then waits for the next. A worker that exits without
 * an outcome has crashed; the executor decides on a retry.
 */
import type { ErrorCode } from '../lib/errors.ts';

export interface JobMessage {
  type: 'job';
  renderId: string;
  /** The resolved, validated movie document. */
  movie: unknown;
  /** Where the MP4 goes on this machine; the executor uploads it. */
  output: string;
  watermark: boolean;
  draft: boolean;
}

export type WorkerMessage =
  /** Sent once, when the worker has loaded and waits for jobs. */
  | { type: 'ready' }
  | { type: 'progress'; phase: 'preparing' | 'rendering'; progress: number; durationSec?: number }
  | { type: 'done'; durationSec: number; width: number; height: number; fps: number; renderMs: number }
  | { type: 'failed'; error: { code: ErrorCode; message: string; path?: string } };

/** The executor asks a worker to stop with SIGTERM; the worker aborts its render and exits. */
export const STOP_SIGNAL = 'SIGTERM';
