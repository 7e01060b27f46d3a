import { AppError } from '../../lib/errors.ts';
import { createLogger } from '../../lib/logger.ts';
import { platformFault } from '../../lib/platform-fault.ts';
import { answerCalls } from '../../lib/process/child-calls.ts';
import { sweepStaleTempDirs } from '../../lib/temp-dirs.ts';
import { validateMovie } from '../../movie/index.ts';
import { posterFiles } from '../encode/poster.ts';
import type { JobMessage, JobOutcome, JobProgress, WorkerMessage } from '../job-protocol.ts';
import { renderMovie, type WorkerConfig } from '../run/render-movie.ts';
import { workerConfigFromEnv } from './config.ts';

/** `framewright worker`'s options, checked by bin/commands.ts. */
export interface WorkerOptions {
  /** The Render resource this Job pod runs; without it, renders come over IPC. */
  render?: string;
  step: 'single' | 'prepare' | 'segments' | 'join';
  /** 1-64 */
  segments: number;
}

/**
 * `framewright worker`: runs the renders the executor sends over IPC, one at a time, reporting
 * through the channel (the in-process status sink). The process stays warm between renders and
 * exits when the executor disconnects. Knows nothing of HTTP or the database.
 */
export async function main(options: WorkerOptions): Promise<number> {
  // In a cluster: one render, read from its Render resource (the Job's command), whole or one
  // step of it (operator/stages.ts).
  if (options.render !== undefined) {
    return (await import('./pod.ts')).runPod(options.render, process.env, {
      step: options.step,
      segments: options.segments,
    });
  }
  if (!process.send) {
    process.stderr.write(
      'framewright worker is started by the executor with an IPC channel; use `framewright render`.\n',
    );
    return 2;
  }
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info', name: 'worker' });
  const config = workerConfigFromEnv(process.env);
  // What a worker killed outright (SIGKILL, the OOM killer) left in the temporary directory.
  sweepStaleTempDirs({ logger });

  let current: AbortController | undefined;
  process.once('SIGTERM', () => {
    current?.abort(new AppError('RENDER_FAILED', 'The render was stopped'));
    if (process.connected) process.disconnect();
  });
  // The executor is gone (drained, or killed with SIGKILL): nobody will take a result, so stop.
  // A killed executor's successor retries the render when its lease expires.
  process.once('disconnect', () => {
    current?.abort(new AppError('RENDER_FAILED', 'The executor went away'));
    setTimeout(() => process.exit(current ? 1 : 0), 2_000).unref();
  });

  // Each job is a call (lib/process/child-calls.ts), answered one at a time: its progress as the
  // call's events, its outcome as the answer. Returns once the executor has disconnected.
  await answerCalls<JobMessage, JobOutcome, JobProgress>(
    async (job, emit) => {
      current = new AbortController();
      try {
        // runJob answers done or failed; its type stays wide for pod.ts's check.
        return (await runJob(job, config, current.signal, logger, emit)) as JobOutcome;
      } finally {
        current = undefined;
      }
    },
    { serial: true },
  );
  return 0;
}

export async function runJob(
  job: JobMessage,
  config: WorkerConfig,
  signal: AbortSignal,
  logger: ReturnType<typeof createLogger>,
  post: (m: JobProgress) => Promise<void>,
): Promise<WorkerMessage> {
  const started = Date.now();
  try {
    const checked = validateMovie(job.movie);
    if (!checked.ok) throw AppError.fromFindings(checked.findings);
    const result = await renderMovie({
      movie: checked.value,
      output: job.output,
      // Beside the output: the executor (or the pod) stores them with it (worker/encode/poster.ts).
      posterFiles: posterFiles(job.output),
      watermark: job.watermark,
      draft: job.draft,
      signal,
      logger: logger.child({ renderId: job.renderId }),
      config,
      onProgress: (e) => {
        if (e.phase === 'preparing') void post({ type: 'progress', phase: 'preparing', progress: e.progress });
        else if (e.phase === 'rendering') {
          void post({ type: 'progress', phase: 'rendering', progress: e.progress, durationSec: e.durationSec });
        }
      },
    });
    return {
      type: 'done',
      durationSec: result.durationSec,
      width: result.width,
      height: result.height,
      fps: result.fps,
      renderMs: Date.now() - started,
    };
  } catch (caught) {
    logger.error({ renderId: job.renderId, err: caught }, 'render failed');
    // A full or failing disk anywhere under the render (an AppError's cause included) is the
    // platform's fault: reported with its own code and no path into the customer's document.
    const err = platformFault(caught, 'rendering') ?? caught;
    return {
      type: 'failed',
      error:
        err instanceof AppError
          ? { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) }
          : { code: 'RENDER_FAILED', message: err instanceof Error ? err.message : String(err) },
    };
  }
}
