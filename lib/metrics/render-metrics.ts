import { Counter, Histogram, type Registry } from 'prom-client';

/** Renders take seconds to an hour. */
const RENDER_SECONDS = [1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600];
/** A queue is empty (sub-second) or backed up (minutes). */
const QUEUE_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
/** Claimed renders remembered for their duration; a bound, for renders handed to another process. */
const MAX_STARTED = 10_000;

/**
 * The render lifecycle's series, fed by its observer (store/lifecycle/render-lifecycle.ts): the
 * process whose executor makes a transition counts it (the API with the in-process pool, the
 * operator in the cluster shape), so Prometheus sums them over jobs. It is the lifecycle's
 * LifecycleObserver (structurally: lib does not depend on the store).
 */
export class RenderMetrics {
  readonly completions: Counter;
  readonly failures: Counter<'code'>;
  readonly duration: Histogram<'outcome'>;
  readonly queueWait: Histogram;
  readonly creditsCharged: Counter<'reason'>;
  /** When each render this process claimed started its work (ms since the epoch). */
  readonly #started = new Map<string, number>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.completions = new Counter({
      name: 'framewright_renders_completed_total',
      help: 'Renders that finished with an output.',
      registers,
    });
    this.failures = new Counter({
      name: 'framewright_renders_failed_total',
      help: 'Renders that failed, by error code (docs/errors).',
      labelNames: ['code'] as const,
      registers,
    });
    this.duration = new Histogram({
      name: 'framewright_render_duration_seconds',
      help: 'Seconds of render work: from the claim that started the final attempt to the outcome.',
      labelNames: ['outcome'] as const,
      buckets: RENDER_SECONDS,
      registers,
    });
    this.queueWait = new Histogram({
      name: 'framewright_render_queue_wait_seconds',
      help: 'Seconds from a render’s creation until an executor first took it.',
      buckets: QUEUE_SECONDS,
      registers,
    });
    this.creditsCharged = new Counter({
      name: 'framewright_credits_charged_total',
      help: 'Credits charged, by what for (render, script).',
      labelNames: ['reason'] as const,
      registers,
    });
  }

  /** A holder took the render at `at`; `queueWaitSec` on the first time it left the queue. */
  claimed(id: string, queueWaitSec: number | undefined, at: Date): void {
    if (queueWaitSec !== undefined) this.queueWait.observe(queueWaitSec);
    if (this.#started.size >= MAX_STARTED && !this.#started.has(id)) {
      const oldest = this.#started.keys().next().value;
      if (oldest !== undefined) this.#started.delete(oldest);
    }
    this.#started.set(id, at.getTime());
  }

  completed(id: string, creditsCharged: number, at: Date): void {
    this.completions.inc();
    if (creditsCharged > 0) this.creditsCharged.inc({ reason: 'render' }, creditsCharged);
    this.#finished(id, 'done', at);
  }

  failed(id: string, code: string, at: Date): void {
    this.failures.inc({ code });
    this.#finished(id, 'failed', at);
  }

  /** A render this process did not see start (claimed elsewhere, or never run) has no duration. */
  #finished(id: string, outcome: 'done' | 'failed', at: Date): void {
    const started = this.#started.get(id);
    if (started === undefined) return;
    this.#started.delete(id);
    this.duration.observe({ outcome }, Math.max(0, (at.getTime() - started) / 1000));
  }
}
