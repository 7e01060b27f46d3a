import { AppError } from '../../lib/errors.ts';
import { createLogger } from '../../lib/logger.ts';
import { answerCalls } from '../../lib/process/child-calls.ts';
import { sweepStaleTempDirs } from '../../lib/temp-dirs.ts';
import type { JobMessage, JobOutcome, JobProgress, PreviewMessage, PreviewOutcome } from '../job-protocol.ts';
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
 * `framewright worker`: runs the renders the executor sends over IPC (and the previews the API's
 * preview store sends: api/previews/preview-store.ts), one at a time, reporting
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
  await answerCalls<JobMessage | PreviewMessage, JobOutcome | PreviewOutcome, JobProgress>(
    async (job, emit) => {
      current = new AbortController();
      try {
        // A live preview's preparation (api/previews/): the same process, another call. Each is
        // imported when first asked for: an API pod's preview worker prepares and never draws,
        // and its image has no EGL for headless-gl to load (test/api/previews.test.ts).
        if (job.type === 'preview') {
          const { runPreview } = await import('../run/preview.ts');
          return await runPreview(job, config, current.signal, logger);
        }
        const { runJob } = await import('../run/job.ts');
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
