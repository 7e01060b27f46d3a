import { AppError } from '../../lib/errors.ts';
import { createLogger } from '../../lib/logger.ts';
import { validateMovie } from '../../movie/index.ts';
import type { JobMessage, WorkerMessage } from '../job-protocol.ts';
import { renderMovie, workerConfigFromEnv } from '../render-movie.ts';

/**
 * `framewright worker`: runs ONE render sent by the executor over IPC and reports through the
 * channel (the in-process status sink). Knows nothing of HTTP or the database.
 */
export async function main(_argv: string[]): Promise<number> {
  const send = process.send?.bind(process);
  if (!send) {
    process.stderr.write(
      'framewright worker is started by the executor with an IPC channel; use `framewright render`.\n',
    );
    return 2;
  }
  const post = (m: WorkerMessage) =>
    new Promise<void>((resolve) => {
      if (!process.connected) return resolve();
      send(m, undefined, {}, () => resolve());
    });
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info', name: 'worker' });
  const job = await new Promise<JobMessage>((resolve) => process.once('message', (m) => resolve(m as JobMessage)));
  const controller = new AbortController();
  process.once('SIGTERM', () => controller.abort(new AppError('RENDER_FAILED', 'The render was stopped')));
  // The executor is gone (killed with SIGKILL): nobody will take the result, so stop at once.
  // Its successor retries the render when the lease expires.
  process.once('disconnect', () => {
    controller.abort(new AppError('RENDER_FAILED', 'The executor went away'));
    setTimeout(() => process.exit(1), 2_000).unref();
  });

  const started = Date.now();
  try {
    const checked = validateMovie(job.movie);
    if (!checked.ok) throw AppError.fromFindings(checked.findings);
    const result = await renderMovie({
      movie: checked.value,
      output: job.output,
      watermark: job.watermark,
      draft: job.draft,
      signal: controller.signal,
      logger: logger.child({ renderId: job.renderId }),
      config: workerConfigFromEnv(),
      onProgress: (e) => {
        if (e.phase === 'preparing') void post({ type: 'progress', phase: 'preparing', progress: e.progress });
        else if (e.phase === 'rendering') {
          void post({ type: 'progress', phase: 'rendering', progress: e.progress, durationSec: e.durationSec });
        }
      },
    });
    await post({
      type: 'done',
      durationSec: result.durationSec,
      width: result.width,
      height: result.height,
      fps: result.fps,
      renderMs: Date.now() - started,
    });
    return 0;
  } catch (err) {
    const error =
      err instanceof AppError
        ? { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) }
        : { code: 'RENDER_FAILED' as const, message: err instanceof Error ? err.message : String(err) };
    logger.error({ renderId: job.renderId, err }, 'render failed');
    await post({ type: 'failed', error });
    return 1;
  } finally {
    // The IPC channel keeps the process alive: close it so the worker exits with its outcome sent.
    if (process.connected) process.disconnect();
  }
}
