/**
 * The typed boundary between an executor and a worker process. The executor forks
 * `framewright worker` as a supervised child (lib/process/supervised-child.ts) and calls it with
 * one `job` at a time; the call's events are progress and its answer the outcome, and the worker
 * then waits for the next. A worker that exits without an outcome has crashed (the call is
 * rejected); the executor decides on a retry.
 */
import type { ErrorCode } from '../lib/errors.ts';
import type { OutputFormatName } from '../lib/output-formats.ts';
import type { GlRenderer } from './draw/backend/renderer.ts';

export interface JobMessage {
  type: 'job';
  renderId: string;
  /** The resolved, validated movie document. */
  movie: unknown;
  /** The output format, decided when the render was created (the render row's). */
  format: OutputFormatName;
  /** Where the MP4 goes on this machine; the executor uploads it. */
  output: string;
  watermark: boolean;
  draft: boolean;
}

/**
 * A live preview (api/previews/): the movie prepared into `dir` as a render's prepare step would,
 * nothing drawn, its sound mixed and encoded; answered with `prepared`. The same worker process
 * takes it, as a call like a job's.
 */
export interface PreviewMessage {
  type: 'preview';
  movie: unknown;
  dir: string;
  watermark: boolean;
}

/** A file of a prepared preview: the name the plan gives it, where it is, what it is. */
export interface PreviewFile {
  name: string;
  path: string;
  type: string;
}

/** A preview's outcome: the plan the browser player draws (its files by name), or why not. */
export type PreviewOutcome =
  | {
      type: 'prepared';
      /** The render plan (worker/plan/plan.ts) with every file a name of `files`. */
      plan: unknown;
      durationSec: number;
      files: PreviewFile[];
      /** The name of the mixed sound in `files`, for a movie with sound. */
      sound?: string | undefined;
      /** Word timings of each subtitles element (by its path), absolute seconds: what its captions show. */
      words: Record<string, { text: string; startSec: number; endSec: number }[]>;
    }
  | Extract<JobOutcome, { type: 'failed' }>;

/** A job's progress, and which GL draws it, as the events of its call. */
export type JobProgress =
  | {
      type: 'progress';
      phase: 'preparing' | 'rendering';
      progress: number;
      durationSec?: number;
    }
  | { type: 'drawing'; renderer: GlRenderer };

/** A job's outcome, the answer of its call. */
export type JobOutcome =
  | { type: 'done'; durationSec: number; width: number; height: number; fps: number; renderMs: number }
  | { type: 'failed'; error: { code: ErrorCode; message: string; path?: string } };

export type WorkerMessage = JobProgress | JobOutcome;
