/**
 * One render, whole, as a worker runs it for whoever asked: the in-process executor's worker
 * process (cli/worker.ts, over IPC) and a Job pod (cli/pod.ts, from its Render). The movie is
 * checked again, rendered to `job.output` with its poster files beside it, and the outcome is
 * a done or failed message; a failure is its AppError's code, a full disk the platform's fault.
 */
import { AppError } from '../../lib/errors.ts';
import type { createLogger } from '../../lib/logger.ts';
import { validateMovie } from '../../movie/index.ts';
import { posterFiles } from '../encode/poster.ts';
import type { JobMessage, JobProgress, WorkerMessage } from '../job-protocol.ts';
import { failedOutcome, type WorkerConfig } from './prepare-render.ts';
import { renderMovie } from './render-movie.ts';

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
      format: job.format,
      output: job.output,
      // Beside the output: the executor (or the pod) stores them with it (worker/encode/poster.ts).
      posterFiles: posterFiles(job.output),
      watermark: job.watermark,
      draft: job.draft,
      signal,
      logger: logger.child({ renderId: job.renderId }),
      config,
      onDrawing: (renderer) => void post({ type: 'drawing', renderer }),
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
    return failedOutcome(caught, 'rendering');
  }
}
