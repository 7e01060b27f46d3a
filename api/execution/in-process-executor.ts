import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { jitteredDelay, LOOP_BACKOFF, retryTransient } from '../../lib/backoff.ts';
import { type ErrorBody, type ErrorCode, errorBody } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { DrawingReport } from '../../lib/metrics/drawing-metrics.ts';
import { contentType, extension } from '../../lib/output-formats.ts';
import { describeExit, type SupervisedChild } from '../../lib/process/supervised-child.ts';
import { storePosterImages } from '../../lib/render-images.ts';
import { outputKey, posterKey, thumbnailKey } from '../../lib/storage/keys.ts';
import type { ObjectStore } from '../../lib/storage/object-store.ts';
import type { Database } from '../../store/database.ts';
import { isDatabaseUnavailable } from '../../store/db-unavailable.ts';
import { type AttemptOutcome, decideOutcome, stoppedUnexpectedly } from '../../store/lifecycle/decisions.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import { isTerminal } from '../../store/lifecycle/transitions.ts';
import type { RenderRow } from '../../store/types.ts';
import type { JobMessage, JobOutcome, JobProgress } from '../../worker/job-protocol.ts';
import type { ExecutorPort } from './executor.ts';
import { attemptOutput } from './scratch-sweeper.ts';
import { workerProcess } from './worker-process.ts';

export interface InProcessExecutorOptions {
  db: Database;
  objects: ObjectStore;
  /** Base of the docsUrl of the errors it records. */
  publicBaseUrl: string;
  /** Scratch space for outputs before upload (DATA_DIR/tmp). */
  scratchDir: string;
  logger: Logger;
  /** Worker processes at once (RENDER_CONCURRENCY); default one per core. */
  concurrency?: number;
  leaseMs?: number;
  /** Attempts per render: a crash is retried from the start once, then the render fails. */
  maxAttempts?: number;
  /** How often an idle executor looks for work another process queued. */
  pollMs?: number;
  /** How long close() lets running renders finish before handing them back. */
  drainMs?: number;
  now?: () => Date;
  /** Environment of the worker processes (read once by the command: pipelineConfig). */
  workerEnv: NodeJS.ProcessEnv;
  /** Told of each lifecycle transition this executor commits (metrics). */
  observer?: lifecycle.LifecycleObserver | undefined;
  /** Told which GL each render was drawn with, as its worker reports it (metrics). */
  onDrawing?: ((renderer: DrawingReport) => void) | undefined;
}

/** A worker process (lib/process/supervised-child.ts: its state, exit and stderr tail) and its renders so far. */
interface WorkerProcess {
  child: SupervisedChild<JobMessage, JobOutcome, JobProgress>;
  jobs: number;
}

interface Running {
  render: lifecycle.LeasedRender;
  /** The attempt's id: its scratch files carry it (api/execution/scratch-sweeper.ts). */
  attemptId: string;
  child: WorkerProcess['child'];
  attempt: Attempt;
  outcome: Promise<void>;
}

/** One attempt's own state, which its supervision reads. */
interface Attempt {
  /** Its render was finished by someone else (cancelled): its worker is being stopped. */
  cancelled: boolean;
}

/** How long a worker stopped for a cancellation has to clean up (SIGTERM) before it is killed. */
const CANCEL_GRACE_MS = 5_000;

/** A worker is replaced after this many renders, so a slow leak in one cannot grow for ever. */
const JOBS_PER_WORKER = 50;

/**
 * The embedded render executor: a bounded pool of worker child processes that claim queued renders
 * from Postgres (FOR UPDATE SKIP LOCKED, lease plus heartbeat). Several API processes may run one
 * each against the same database. Every state change goes through the shared lifecycle module.
 */
export class InProcessExecutor implements ExecutorPort {
  private readonly running = new Map<string, Running>();
  private readonly owner = `exec-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly pollMs: number;
  private readonly drainMs: number;
  private readonly now: () => Date;
  /** Renders finished by this executor and the renderer's own time they took (benchmarks). */
  readonly stats = { done: 0, renderMs: 0 };
  private draining = false;
  private readonly stopping = new Set<string>();
  /**
   * Warm worker processes waiting for a job. Starting a worker costs about 2 CPU seconds (Node,
   * the TypeScript loader, three.js, sharp): reusing them keeps that out of every render.
   */
  private readonly idle: WorkerProcess[] = [];
  private wake: (() => void) | undefined;
  /** Aborted when close() gives up waiting: outcomes still waiting for the database stop retrying. */
  private readonly giveUp = new AbortController();
  private loop: Promise<void> | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Stops following the renders' changes (set by start). */
  private unsubscribe: Promise<(() => Promise<void>) | undefined> | undefined;
  /** Renders whose row is being read to tell whether they were finished elsewhere, and those to read again after. */
  private readonly checking = new Set<string>();
  private readonly checkAgain = new Set<string>();

  constructor(private readonly opts: InProcessExecutorOptions) {
    this.concurrency = opts.concurrency ?? availableParallelism();
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.maxAttempts = opts.maxAttempts ?? 2;
    this.pollMs = opts.pollMs ?? 1_000;
    this.drainMs = opts.drainMs ?? 25_000;
    this.now = opts.now ?? (() => new Date());
  }

  /**
   * A lease for one claim: the owner token names this executor and the attempt, so two attempts
   * of one render (the same executor claiming it again after its lease ran out) never pass for
   * each other: the stale one's heartbeat, progress and outcome are refused.
   */
  private newLease(): lifecycle.Lease & { attemptId: string } {
    const attemptId = randomBytes(6).toString('hex');
    return { owner: `${this.owner}.${attemptId}`, leaseMs: this.leaseMs, attemptId };
  }

  private get deps(): lifecycle.LifecycleDeps {
    return { db: this.opts.db, now: this.now, observer: this.opts.observer };
  }

  /** Starts claiming. Renders left behind by a killed process are retried or failed first. */
  start(): void {
    if (this.loop) return;
    void this.warm();
    // A render cancelled by any process (lifecycle.cancel) shows as a change of its row: this
    // process publishes its own, and on PostgreSQL every process's arrive by LISTEN.
    this.unsubscribe = this.opts.db.renderChanges
      .subscribe((id) => {
        for (const running of id === null ? this.running.keys() : [id]) void this.checkFinished(running);
      })
      .catch((err: unknown) => {
        // Heartbeats and progress reports still find a cancelled render, only later.
        this.opts.logger.warn({ err }, 'following render changes failed; cancellations are noticed by heartbeat');
        return undefined;
      });
    this.loop = this.claimLoop();
    this.sweepTimer = setInterval(() => void this.failAbandoned(), this.leaseMs);
    this.sweepTimer.unref();
  }

  /**
   * Starts the pool's worker processes ahead of the first render and resolves when they are
   * loaded, so a render never waits for a process to start.
   */
  async warm(): Promise<void> {
    const missing = this.concurrency - this.idle.length - this.running.size;
    const started = Array.from({ length: Math.max(0, missing) }, () => {
      const worker = this.spawnWorker();
      this.idle.push(worker);
      // Ready, or exited before it was (it is then dropped from the pool).
      return worker.child.ready.catch(() => {});
    });
    await Promise.all(started);
  }

  async submit(_render: RenderRow): Promise<void> {
    this.wake?.();
  }

  /** Stops the worker of a render cancelled here (one cancelled by another process arrives as a change). */
  async cancel(render: RenderRow): Promise<void> {
    await this.checkFinished(render.id);
  }

  /**
   * After a change of a render this executor runs: was it finished by someone else (cancelled)?
   * One read per render at a time; a change that arrives during a read is read again after it,
   * so none is missed.
   */
  private async checkFinished(id: string): Promise<void> {
    if (this.checking.has(id)) {
      this.checkAgain.add(id);
      return;
    }
    this.checking.add(id);
    try {
      await this.stopIfFinished(id);
    } catch (err) {
      this.opts.logger.warn({ err, renderId: id }, 'reading whether a render was cancelled failed');
    } finally {
      this.checking.delete(id);
      if (this.checkAgain.delete(id)) void this.checkFinished(id);
    }
  }

  /**
   * Whether a render this executor runs was finished by someone else (cancelled): its row says
   * so, and then its worker is stopped (once). True when it was.
   */
  private async stopIfFinished(id: string): Promise<boolean> {
    const running = this.running.get(id);
    if (!running) return false;
    if (running.attempt.cancelled) return true;
    const row = await lifecycle.state(this.deps, id);
    if (!row || !isTerminal(row.status) || this.running.get(id) !== running) return false;
    if (!running.attempt.cancelled) this.stopCancelled(running, (row.error as ErrorBody | null)?.code);
    return true;
  }

  /**
   * Stops the worker of a cancelled render: SIGTERM first, so that it aborts the render and
   * removes its own temporary files, then SIGKILL if it has not exited after CANCEL_GRACE_MS.
   * Its call then rejects, and supervise() records nothing more (the cancellation did).
   */
  private stopCancelled(running: Running, code: string | undefined): void {
    running.attempt.cancelled = true;
    const { child, render } = running;
    this.opts.logger.info({ renderId: render.id, code }, 'render finished elsewhere (cancelled); stopping its worker');
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), CANCEL_GRACE_MS);
    void child.exited.then(() => clearTimeout(killer));
  }

  /** Number of renders this executor is running now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * The ids of the attempts this executor runs now. Their files are theirs whatever their lease
   * says: a lease that ran out while the database was away is still its holder's until another
   * claim takes it.
   */
  attemptIds(): string[] {
    return [...this.running.values()].map((r) => r.attemptId);
  }

  private async claimLoop(): Promise<void> {
    await this.failAbandoned();
    let failures = 0;
    while (!this.draining) {
      let delay = this.pollMs;
      try {
        while (!this.draining && this.running.size < this.concurrency) {
          const lease = this.newLease();
          const asked = performance.now();
          // Never a render this executor runs itself, whatever its lease says.
          const render = await lifecycle.claimNext(this.deps, lease, this.maxAttempts, [...this.running.keys()]);
          if (!render) break;
          if (!(await this.stillHeld(render, lease, performance.now() - asked))) continue;
          this.run(render, lease);
        }
        if (failures > 0) this.opts.logger.info({ failures }, 'claiming renders works again');
        failures = 0;
      } catch (err) {
        // A lost database: back off (0.5 s doubling to 10 s) and carry on when it returns.
        delay = Math.max(this.pollMs, jitteredDelay(LOOP_BACKOFF, failures++));
        this.opts.logger.error({ err, retryInMs: delay }, 'claiming renders failed; retrying');
      }
      // close() may have come while a claim was in flight, when there was no sleep to cut short.
      if (this.draining) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /**
   * Whether a claim that came back slowly (a database outage) still holds the render. The lease
   * starts when the claim's statement runs on the database, after the call was made, so a claim
   * back within a heartbeat period has most of its lease left; a slower one is confirmed by a
   * heartbeat (which renews it) before its worker starts. One that lost it, or whose heartbeat
   * does not go through, does not start: the lease runs out and the render is claimed again.
   */
  private async stillHeld(render: lifecycle.LeasedRender, lease: lifecycle.Lease, tookMs: number): Promise<boolean> {
    if (tookMs < this.leaseMs / 3) return true;
    const log = this.opts.logger.child({ renderId: render.id, attempt: render.attempts });
    try {
      if (await lifecycle.heartbeat(this.deps, render.id, lease)) return true;
      log.warn({ claimMs: Math.round(tookMs) }, 'the claim came back after another took the render; not starting it');
    } catch (err) {
      log.warn({ err, claimMs: Math.round(tookMs) }, 'a slow claim could not be confirmed; not starting it');
    }
    return false;
  }

  private async failAbandoned(): Promise<void> {
    try {
      for (const id of await lifecycle.abandonedRenders(this.deps, this.maxAttempts)) {
        await lifecycle.fail(this.deps, id, null, this.error('INTERNAL', stoppedUnexpectedly(this.maxAttempts)));
      }
    } catch (err) {
      this.opts.logger.error({ err }, 'failing abandoned renders failed');
    }
  }

  private error(code: ErrorCode, message: string, path?: string) {
    return errorBody(this.opts.publicBaseUrl, code, message, path);
  }

  private spawnWorker(): WorkerProcess {
    // Tied to this process (it dies with serve, however serve dies); a worker that could not
    // start is an exit like any other, which the render's call sees as a crash.
    const child = workerProcess<JobMessage, JobOutcome, JobProgress>('render worker', this.opts.workerEnv);
    const worker: WorkerProcess = { child, jobs: 0 };
    // An idle worker that dies is simply dropped from the pool.
    void child.exited.then((exit) => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      if (exit.error) this.opts.logger.warn({ err: exit.error }, 'a render worker process could not start');
    });
    return worker;
  }

  private run(render: lifecycle.LeasedRender, lease: lifecycle.Lease & { attemptId: string }): void {
    const log = this.opts.logger.child({ renderId: render.id, attempt: render.attempts });
    // The attempt's own files (the worker derives its .part, chunks and lists from this name):
    // two attempts of one render, here or in another process on the same DATA_DIR, never share
    // one, even with the same attempt number (a handed-back render's next claim reuses it).
    const output = attemptOutput(this.opts.scratchDir, render.id, render.attempts, lease.attemptId);
    const worker = this.idle.pop() ?? this.spawnWorker();
    worker.jobs++;
    const attempt: Attempt = { cancelled: false };
    const outcome = this.supervise(render, lease, worker, attempt, output, log)
      .catch((err: unknown) => {
        // Only a non-transient error gets here (a transient one is waited out): the render keeps
        // its lease, which expires, and it is claimed again; nothing may take the process down.
        log.error({ err }, 'recording the outcome of the render failed; it will be retried');
      })
      .finally(async () => {
        this.running.delete(render.id);
        await removeAttemptFiles(output);
        // The pool replaces a worker stopped for a cancellation, so the next render finds one warm.
        if (attempt.cancelled && !this.draining) void this.warm();
        this.wake?.();
      });
    this.running.set(render.id, { render, attemptId: lease.attemptId, child: worker.child, attempt, outcome });
    log.info('render started');
  }

  private async supervise(
    render: lifecycle.LeasedRender,
    lease: lifecycle.Lease,
    worker: WorkerProcess,
    attempt: Attempt,
    output: string,
    log: Logger,
  ): Promise<void> {
    const { child } = worker;
    await mkdir(this.opts.scratchDir, { recursive: true });
    // Reports are applied in order, one at a time, so a late report never overtakes an earlier one.
    let chain = Promise.resolve();
    const heartbeat = setInterval(() => {
      lifecycle.heartbeat(this.deps, render.id, lease).then(
        (held) => {
          if (held || child.state === 'exited' || attempt.cancelled) return;
          // Cancelled: stopped so that it cleans up. Taken by another claim: killed at once.
          void this.stopIfFinished(render.id)
            .catch(() => false)
            .then((finished) => {
              if (finished || child.state === 'exited') return;
              log.warn('lease lost; stopping the worker');
              child.kill('SIGKILL');
            });
        },
        // An unreachable database is not a lost lease: the worker goes on, and the next beat
        // (or the outcome, retried until the database is back) tells whether we still hold it.
        (err: unknown) => log.warn({ err }, 'heartbeat failed; the render goes on'),
      );
    }, this.leaseMs / 3);
    heartbeat.unref();

    const job: JobMessage = {
      type: 'job',
      renderId: render.id,
      movie: render.movie,
      format: render.outputFormat,
      output,
      watermark: render.watermark,
      draft: render.draft,
    };
    // The call's answer is the worker's outcome; a rejected call (the worker exited without one,
    // or never started) is a crash, told by its exit.
    let result: JobOutcome | undefined;
    let crash: unknown;
    try {
      result = await child.call(job, {
        // A report that cannot be recorded (database away) is dropped: the next one carries the
        // newer progress, and the outcome is retried until it is recorded.
        onEvent: (m) => {
          if (m.type === 'drawing') {
            log.info(m.renderer, 'drawing with');
            this.opts.onDrawing?.(m.renderer);
            return;
          }
          chain = chain.then(() =>
            lifecycle
              .reportProgress(this.deps, render.id, lease, {
                phase: m.phase,
                progress: m.progress,
                durationSec: m.durationSec,
              })
              .then(
                // Refused: the render is no longer this attempt's (cancelled, or its lease lost).
                (held) => {
                  if (!held) void this.checkFinished(render.id);
                },
                (err: unknown) => log.warn({ err }, 'progress report not recorded'),
              ),
          );
        },
      });
    } catch (err) {
      crash = err;
    }
    clearInterval(heartbeat);
    // A worker that answered and is still healthy goes back to the pool for the next render.
    if (result && child.connected && !this.draining && !attempt.cancelled && worker.jobs < JOBS_PER_WORKER) {
      this.idle.push(worker);
    } else if (child.state !== 'exited') {
      child.disconnect();
    }
    await chain;

    // The worker reports what happened; decideOutcome says what it means for the render.
    const outcome: AttemptOutcome = result?.type ?? 'crashed';
    const { exit } = child;
    const tail = child.stderrTail().trim().split('\n').slice(-3).join(' | ');
    const decision = decideOutcome({
      outcome,
      code: result?.type === 'failed' ? result.error.code : undefined,
      attempt: render.attempts,
      maxAttempts: this.maxAttempts,
      stopping: this.stopping.has(render.id),
      cancelled: attempt.cancelled,
      detail: `${exit ? describeExit(exit) : (crash as Error)?.message}${tail ? `: ${tail}` : ''}`,
    });
    const died = { code: exit?.code, signal: exit?.signal, stderr: child.stderrTail() };
    switch (decision.action) {
      case 'complete':
        await this.finish(render, lease, output, result as Extract<JobOutcome, { type: 'done' }>, log);
        break;
      case 'cancelled':
        log.info({ exit: exit && describeExit(exit) }, 'render cancelled; its worker stopped');
        break;
      case 'hand-back':
        await this.record('hand-back', log, () => lifecycle.release(this.deps, render.id, lease));
        log.info('render handed back while draining');
        break;
      case 'retry':
        // A crash, or a failure the catalogue retries: claimed again at once, run from the start.
        if (result?.type === 'failed') log.warn({ error: result.error }, 'render failed; retrying it');
        else log.error(died, 'worker process died; retrying the render');
        await this.record('retry', log, () => lifecycle.retryAttempt(this.deps, render.id, lease));
        break;
      case 'fail': {
        // 'worker' comes only from a failed answer, whose error the worker reported.
        const error =
          decision.cause === 'interrupted' ? decision.error : (result as Extract<JobOutcome, { type: 'failed' }>).error;
        if (decision.cause === 'worker') log.warn({ error }, 'render failed');
        else log.error(died, 'worker process died again; failing the render');
        await this.record('failure', log, () =>
          lifecycle.fail(this.deps, render.id, lease, this.error(error.code, error.message, error.path)),
        );
        break;
      }
    }
  }

  /**
   * Records an outcome, waiting out an unreachable database (a restart, a failover) so that no
   * outcome is lost: each lifecycle step is idempotent (a step whose commit went through but
   * whose answer was lost finds the render finished and changes nothing). close() stops waiting
   * after its drain time; the lease then expires and the render is run again.
   */
  private record<T>(what: string, log: Logger, step: () => Promise<T>): Promise<T> {
    return retryTransient(step, {
      isTransient: isDatabaseUnavailable,
      signal: this.giveUp.signal,
      onRetry: (err, attempt, delayMs) =>
        log.warn({ err, attempt, retryInMs: delayMs }, `recording the ${what} waits for the database`),
    });
  }

  private async finish(
    render: lifecycle.LeasedRender,
    lease: lifecycle.Lease,
    output: string,
    done: Extract<JobOutcome, { type: 'done' }>,
    log: Logger,
  ): Promise<void> {
    const format = render.outputFormat;
    const key = outputKey(render.id, extension(format));
    // The upload waits out an unreachable store (S3_RETRY_SEC), which may outlast the lease: keep it.
    const beat = setInterval(() => lifecycle.heartbeat(this.deps, render.id, lease).catch(() => {}), this.leaseMs / 3);
    try {
      await this.opts.objects.putFile(key, output, contentType(format));
      // The poster and thumbnail the worker wrote beside it (worker/encode/poster.ts), under their keys.
      await storePosterImages(this.opts.objects, render.id, output);
    } catch (err) {
      log.error({ err }, 'uploading the output failed');
      // The platform's storage faults keep their codes: STORAGE_UNAVAILABLE (the store stayed
      // unreachable for its whole retry window), INSUFFICIENT_STORAGE (the local store's disk is full).
      const code = (err as { code?: unknown }).code;
      const error =
        code === 'STORAGE_UNAVAILABLE' || code === 'INSUFFICIENT_STORAGE'
          ? this.error(code, `Storing the output failed: ${(err as Error).message}`)
          : this.error('INTERNAL', 'Storing the output failed.');
      await this.record('failure', log, () => lifecycle.fail(this.deps, render.id, lease, error));
      return;
    } finally {
      clearInterval(beat);
    }
    // The lifecycle prices it, settles the credits and sets the expiry: the executor only reports.
    const completed = await this.record('completion', log, () =>
      lifecycle.complete(this.deps, render.id, lease, { durationSec: done.durationSec, outputKey: key }),
    );
    this.stats.done++;
    this.stats.renderMs += done.renderMs;
    if (completed) {
      log.info({ durationSec: done.durationSec, renderMs: done.renderMs }, 'render done');
      return;
    }
    // Refused: cancelled while it was stored (its output is nobody's), or another holder's now.
    const row = await lifecycle.state(this.deps, render.id).catch(() => undefined);
    if (row?.status === 'failed') {
      log.info(
        { code: (row.error as ErrorBody | null)?.code },
        'render finished elsewhere (cancelled) as its output was stored; deleted',
      );
      for (const k of [key, posterKey(render.id), thumbnailKey(render.id)]) {
        await this.opts.objects.delete(k).catch((err: unknown) => log.warn({ err }, 'deleting the output failed'));
      }
    } else log.warn('render finished after its lease was lost; the other holder owns it');
  }

  /**
   * Drains: stops claiming, lets running renders finish for up to `drainMs`, then stops their
   * workers and hands the renders back so another process (or the next start) runs them.
   */
  async close(): Promise<void> {
    this.draining = true;
    this.wake?.();
    for (const { child } of this.idle.splice(0)) child.disconnect();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.loop;
    const unsubscribe = await this.unsubscribe;
    await unsubscribe?.().catch((err: unknown) => this.opts.logger.warn({ err }, 'unsubscribing from changes failed'));
    const all = Promise.all([...this.running.values()].map((r) => r.outcome));
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), this.drainMs).unref());
    if ((await Promise.race([all.then(() => 'done' as const), timer])) === 'timeout') {
      for (const { render, child } of this.running.values()) {
        this.stopping.add(render.id);
        child.kill('SIGTERM');
      }
      // Outcomes still waiting for an unreachable database get one more drain period; after it
      // their leases simply expire and the next claimer runs them again.
      const last = setTimeout(() => this.giveUp.abort(), this.drainMs);
      await all;
      clearTimeout(last);
    }
  }
}

/**
 * Removes an attempt's scratch files: its output and whatever the worker named after it (the
 * `.part`, encoder chunks, concat lists, overlay folders), also those a killed worker left.
 */
async function removeAttemptFiles(output: string): Promise<void> {
  const dir = path.dirname(output);
  const base = path.basename(output);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((n) => n === base || n.startsWith(`${base}.`))
      .map((n) => rm(path.join(dir, n), { recursive: true, force: true }).catch(() => {})),
  );
}
