import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { AppError } from '../../lib/errors.ts';
import { isNotFound, loadKubeConfig, RendersClient } from '../../lib/kube/client.ts';
import type { Render, RenderStatus } from '../../lib/kube/render-resource.ts';
import { createLogger, type Logger, logProcessWarnings } from '../../lib/logger.ts';
import type { OutputFormatName } from '../../lib/output-formats.ts';
import { contentType } from '../../lib/output-formats.ts';
import { platformFault } from '../../lib/platform-fault.ts';
import { monotonicReport, preparingProgress } from '../../lib/render-progress.ts';
import { readManifest, removeWork } from '../../lib/render-work.ts';
import { objectStoreFromEnv } from '../../lib/storage/from-env.ts';
import type { ObjectStore } from '../../lib/storage/object-store.ts';
import { STOPPED_EXIT, workerExitCode } from '../../lib/worker-exit.ts';
import { validateMovie } from '../../movie/index.ts';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import { posterFiles, posterTime, storePosterImages, writePosterImages } from '../encode/poster.ts';
import type { WorkerMessage } from '../job-protocol.ts';
import { joinStep, prepareStep, segmentStep } from '../run/cluster-steps.ts';
import { runJob } from '../run/job.ts';
import type { WorkerConfig } from '../run/prepare-render.ts';
import { workerConfigFromEnv } from './config.ts';

/** Which step of the render this pod runs (operator/stages.ts), and the prepare's segment budget. */
export interface PodStep {
  step: 'single' | 'prepare' | 'segments' | 'join';
  segments: number;
}

interface StepDeps {
  objects: ObjectStore;
  sink: StatusSink;
  config: WorkerConfig;
  env: NodeJS.ProcessEnv;
  scratch: string;
  signal: AbortSignal;
  logger: Logger;
}

/**
 * One step of a render spread over pods (worker/run/cluster-steps.ts). Each reports on the Render's
 * status what the operator needs for the next: the prepare its segment plan, a segment pod its
 * frames under its own key of segmentFrames (merge patches of different keys do not collide),
 * the join the MP4. A failure is reported as for a whole render; exit 0 only with the report made.
 */
async function runStep(step: PodStep, movie: unknown, render: Render, d: StepDeps): Promise<number> {
  const { renderId } = render.spec;
  const format = formatOf(render, movie);
  const ctx = {
    renderId,
    objects: d.objects,
    config: d.config,
    signal: d.signal,
    logger: d.logger,
    tmpRoot: d.scratch,
  };
  try {
    if (step.step === 'prepare') {
      const checked = validateMovie(movie);
      if (!checked.ok) throw AppError.fromFindings(checked.findings);
      d.sink.progress({ type: 'progress', phase: 'preparing', progress: 0 });
      const plan = await prepareStep({
        ...ctx,
        movie: checked.value,
        format,
        draft: render.spec.draft,
        watermark: render.spec.watermark,
        maxSegments: step.segments,
        onStep: (f) => d.sink.progress({ type: 'progress', phase: 'preparing', progress: preparingProgress(f) }),
      });
      await d.sink.flush({ phase: 'preparing', progress: 19, ...plan });
      d.logger.info(plan, 'prepared');
      return 0;
    }
    if (step.step === 'segments') {
      const index = Number(d.env.JOB_COMPLETION_INDEX);
      if (!Number.isInteger(index) || index < 0) {
        throw new Error(`JOB_COMPLETION_INDEX is not a segment index: ${d.env.JOB_COMPLETION_INDEX}`);
      }
      const key = String(index);
      const { frames } = await segmentStep({
        ...ctx,
        index,
        onFrames: (n) => d.sink.report({ segmentFrames: { [key]: n } }),
        onDrawing: (r) => d.sink.report({ drawing: r }),
      });
      await d.sink.flush({ segmentFrames: { [key]: frames } });
      d.logger.info({ index, frames }, 'segment rendered');
      return 0;
    }
    if (render.status?.outputKey === render.spec.outputKey && render.status.durationSec !== undefined) {
      // An earlier join pod stored and reported the MP4, then was stopped before it exited: its
      // work objects may be gone already, and there is nothing left to do.
      d.logger.info('the joined MP4 is already reported');
      return 0;
    }
    const output = path.join(d.scratch, 'output.mp4');
    const manifest = await readManifest(d.objects, renderId);
    const { durationSec } = await joinStep({ ...ctx, output });
    // The poster and thumbnail of the joined file (worker/encode/poster.ts), stored with it.
    const frame = manifest?.plan as { width: number; height: number; fps: number; totalFrames: number } | undefined;
    if (frame) {
      await writePosterImages(d.config.ffmpegPath, output, posterTime(movie), frame, posterFiles(output), d.signal);
    }
    await d.objects.putFile(render.spec.outputKey, output, contentType(format));
    await storePosterImages(d.objects, renderId, output);
    await d.sink.flush({ phase: 'rendering', progress: 99, durationSec, outputKey: render.spec.outputKey });
    await removeWork(d.objects, renderId, d.logger).catch((err: unknown) =>
      d.logger.warn({ err }, 'work objects left for the sweeper'),
    );
    d.logger.info({ durationSec }, 'render joined');
    return 0;
  } catch (err) {
    // A full disk is reported as such (INSUFFICIENT_STORAGE, as in serve), not retried into INTERNAL.
    const reported = err instanceof AppError ? err : platformFault(err, 'rendering');
    // Any other crash of the platform (not the render's input) is retried: exit 1 without a report.
    if (!reported) throw err;
    return await d.sink.failed(reported);
  }
}

/**
 * The render's output format: the one the API decided when it created the render, in the Render's
 * spec. A Render an earlier release made has none; its movie says it, as it did then.
 */
const formatOf = (render: Render, movie: unknown): OutputFormatName =>
  render.spec.outputFormat ?? movieOutputFormat(movie);

/** Progress patches go to the apiserver at most this often; the last one is always sent. */
const PATCH_EVERY_MS = 1_000;

/**
 * How long a pod that finished its work keeps trying to report the outcome while the apiserver
 * does not answer (docs/operations.md, "Exit codes"), and the longest wait between tries.
 */
export const REPORT_RETRY_MS = 10 * 60_000;
const REPORT_RETRY_MAX_DELAY_MS = 5_000;

/**
 * `framewright worker --render NAME`: the command of a render's Job pod. Reads its Render and the
 * movie the spec points at (object store), renders with the same code as the one-machine worker,
 * stores the MP4, and reports through the Render's status subresource (the cluster's status
 * sink). It holds no database credentials: get on its Render and patch on renders/status is all.
 * Exit 0 when the output is stored and reported; a failure of the render itself exits with its
 * catalogue code's status (the Job fails without a retry); anything else is a crash (retried).
 */
export async function runPod(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  step: PodStep = { step: 'single', segments: 1 },
): Promise<number> {
  const logger = createLogger({ level: env.LOG_LEVEL ?? 'info', name: 'worker' }).child({ render: name });
  logProcessWarnings(logger);
  const namespace = env.POD_NAMESPACE;
  if (!namespace) {
    logger.error('POD_NAMESPACE is not set (the Job sets it from metadata.namespace)');
    return 1;
  }
  const renders = new RendersClient(loadKubeConfig(env), namespace);
  const { values } = readEnv(EnvSchema, env);
  const objects = objectStoreFromEnv(values, logger);
  const render = await renders.get(name);
  const sink = new StatusSink(renders, name, logger, render.status);
  const controller = new AbortController();
  // The kubelet stops the pod: it was deleted (kubectl delete pod, its Job deleted on a cancel),
  // evicted or preempted. None of these is the render's failure: the Job runs the pod again (a
  // disruption is not even counted), or the render is already cancelled. So the work stops, no
  // error is reported on the Render, and the pod exits as a process SIGTERM ended (143).
  process.once('SIGTERM', () => {
    sink.stopping = true;
    controller.abort(new AppError('RENDER_FAILED', 'The render was stopped'));
  });

  const scratch = await mkdtemp(path.join(env.TMPDIR ?? tmpdir(), 'fw-pod-'));
  try {
    let movie: unknown;
    try {
      movie = await readMovie(objects, render);
    } catch (err) {
      return await sink.failed(err);
    }
    if (step.step !== 'single') {
      return await runStep(step, movie, render, {
        objects,
        sink,
        config: workerConfigFromEnv(env),
        env,
        scratch,
        signal: controller.signal,
        logger,
      });
    }
    const output = path.join(scratch, 'output.mp4');
    const result = await runJob(
      {
        type: 'job',
        renderId: render.spec.renderId,
        movie,
        format: formatOf(render, movie),
        output,
        watermark: render.spec.watermark,
        draft: render.spec.draft,
      },
      workerConfigFromEnv(env),
      controller.signal,
      logger,
      async (m) => (m.type === 'drawing' ? sink.report({ drawing: m.renderer }) : sink.progress(m)),
    );
    if (result.type === 'failed') {
      return await sink.failed(
        new AppError(result.error.code, result.error.message, result.error.path ? { path: result.error.path } : {}),
      );
    }
    if (result.type !== 'done') throw new Error(`unexpected worker result ${result.type}`);
    const { outputKey } = render.spec;
    try {
      await objects.putFile(outputKey, output, contentType(formatOf(render, movie)));
      await storePosterImages(objects, render.spec.renderId, output);
    } catch (err) {
      // The store stayed unreachable for its whole retry window: STORAGE_UNAVAILABLE, reported.
      if (err instanceof AppError) return await sink.failed(err);
      throw err;
    }
    // The operator completes the render once the Job is Complete and these fields are in the status.
    await sink.flush({ phase: 'rendering', progress: 99, durationSec: result.durationSec, outputKey });
    logger.info({ durationSec: result.durationSec, renderMs: result.renderMs }, 'render done');
    return 0;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The resolved movie, from the object store, checked against the digest in the spec. */
async function readMovie(objects: ObjectStore, render: Render): Promise<unknown> {
  const object = await objects.get(render.spec.movieKey);
  if (!object) throw new AppError('RENDER_FAILED', `The movie object ${render.spec.movieKey} does not exist`);
  const bytes = await buffer(object.body);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== render.spec.movieBytes || digest !== render.spec.movieSha256) {
    throw new AppError('RENDER_FAILED', `The movie object ${render.spec.movieKey} does not match its digest`);
  }
  return JSON.parse(bytes.toString('utf8'));
}

/**
 * Progress reports as merge patches of the Render's status, at most one a second. A patch that
 * fails is logged and superseded by the next; the final report must go through (it is retried).
 */
class StatusSink {
  private last = 0;
  private pending: Partial<RenderStatus> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private inflight: Promise<void> = Promise.resolve();

  constructor(
    private readonly renders: RendersClient,
    private readonly name: string,
    private readonly logger: Logger,
    /** The Render's status when the pod started (an earlier pod's reports): never shown going back. */
    private shown: Pick<RenderStatus, 'phase' | 'progress'> = {},
  ) {}

  /** The report as it may be shown (monotonicReport), remembered as what is shown now. */
  private forward(status: Partial<RenderStatus>): Partial<RenderStatus> {
    const out = monotonicReport(this.shown, status);
    if (out.phase !== undefined) this.shown = { ...this.shown, phase: out.phase };
    if (out.progress !== undefined) this.shown = { ...this.shown, progress: out.progress };
    return out;
  }

  progress(m: WorkerMessage): void {
    if (m.type !== 'progress') return;
    this.report({
      phase: m.phase,
      progress: Math.floor(m.progress),
      ...(m.durationSec !== undefined ? { durationSec: m.durationSec } : {}),
    });
  }

  /**
   * A report merged over the pending one (its newer fields supersede), sent at most once a second:
   * a field reported once (the renderer) is not lost to the progress that follows it.
   */
  report(status: Partial<RenderStatus>): void {
    this.pending = { ...this.pending, ...this.forward(status) };
    const wait = this.last + PATCH_EVERY_MS - Date.now();
    if (wait <= 0) this.send();
    else this.timer ??= setTimeout(() => this.send(), wait);
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const status = this.pending;
    this.pending = undefined;
    if (!status) return;
    this.last = Date.now();
    this.inflight = this.inflight.then(() =>
      this.renders.patchStatus(this.name, status).then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err }, 'progress report not recorded'),
      ),
    );
  }

  /**
   * The last report: waits for earlier ones, then retries until it is recorded. A finished pod
   * keeps its result through an apiserver outage (a restart's drain alone can take a minute):
   * it tries again every few seconds for REPORT_RETRY_MS (the Job's activeDeadlineSeconds may end
   * it sooner), and throws only then, or at once when its Render is gone (nobody to report to).
   */
  async flush(status: Partial<RenderStatus>): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // What was still waiting for its second goes with it (the renderer of a render done in less).
    const pending = this.pending;
    this.pending = undefined;
    await this.inflight;
    status = this.forward({ ...pending, ...status });
    const deadline = Date.now() + REPORT_RETRY_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.renders.patchStatus(this.name, status);
        if (attempt > 1) this.logger.info({ attempt }, 'outcome reported');
        return;
      } catch (err) {
        const wait = Math.min(REPORT_RETRY_MAX_DELAY_MS, 500 * 2 ** attempt);
        if (isNotFound(err) || Date.now() + wait > deadline) throw err;
        this.logger.warn({ err, attempt }, 'reporting the outcome failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** Set at SIGTERM: the pod is being stopped, and what fails now is not the render's failure. */
  stopping = false;

  /** Reports a failure of the render itself and returns the exit status that says so. */
  async failed(err: unknown): Promise<number> {
    const e =
      err instanceof AppError ? err : new AppError('RENDER_FAILED', err instanceof Error ? err.message : String(err));
    if (this.stopping) {
      this.logger.info({ code: e.code, message: e.message }, 'stopped by SIGTERM: nothing reported, the Job decides');
      return STOPPED_EXIT;
    }
    this.logger.warn({ code: e.code, message: e.message, path: e.path }, 'render failed');
    await this.flush({ error: { code: e.code, message: e.message, ...(e.path ? { path: e.path } : {}) } });
    return workerExitCode(e.code);
  }
}
