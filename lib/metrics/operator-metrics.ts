import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** controller-runtime's reconcile buckets (seconds). */
const RECONCILE_SECONDS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2,
  2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
/** client-go's workqueue buckets: 10 ns to 10 s by powers of ten. */
const WORKQUEUE_SECONDS = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10];
/** A Job follows its Render within a second when the operator keeps up. */
const RENDER_TO_JOB_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export interface OperatorMetricsSources {
  /** The controller label (controller-runtime's): "render". */
  controller: string;
  /** The work queue's name label. */
  queueName: string;
  /** The Lease's name label. */
  leaseName: string;
  /** Keys waiting in the work queue now. */
  queueDepth(): number;
  /** Whether this replica leads now. */
  isLeader(): boolean;
}

export type ReconcileResult = 'success' | 'error' | 'requeue';

/**
 * The operator's series under controller-runtime's and client-go's names, so the dashboards and
 * alerts written for Go controllers work unchanged; plus framewright_operator_* for Jobs.
 */
export class OperatorMetrics {
  readonly #reconciles: Counter<'controller' | 'result'>;
  readonly #reconcileErrors: Counter<'controller'>;
  readonly #reconcileTime: Histogram<'controller'>;
  readonly #adds: Counter<'name'>;
  readonly #retries: Counter<'name'>;
  readonly #queueDuration: Histogram<'name'>;
  readonly #workDuration: Histogram<'name'>;
  readonly #jobsCreated: Counter;
  readonly #renderToJob: Histogram;
  readonly #controller: { controller: string };
  readonly #queue: { name: string };

  constructor(registry: Registry, sources: OperatorMetricsSources) {
    const registers = [registry];
    this.#controller = { controller: sources.controller };
    this.#queue = { name: sources.queueName };
    this.#reconciles = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'] as const,
      registers,
    });
    this.#reconcileErrors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'] as const,
      registers,
    });
    this.#reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'] as const,
      buckets: RECONCILE_SECONDS,
      registers,
    });
    // Every series starts at 0, so rate() and absent() see it before the first event.
    for (const result of ['success', 'error', 'requeue'] as const) {
      this.#reconciles.inc({ ...this.#controller, result }, 0);
    }
    this.#reconcileErrors.inc(this.#controller, 0);
    new Gauge({
      name: 'workqueue_depth',
      help: 'Current depth of workqueue',
      labelNames: ['name'] as const,
      registers,
      collect() {
        this.set({ name: sources.queueName }, sources.queueDepth());
      },
    });
    this.#adds = new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames: ['name'] as const,
      registers,
    });
    this.#retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames: ['name'] as const,
      registers,
    });
    this.#adds.inc(this.#queue, 0);
    this.#retries.inc(this.#queue, 0);
    this.#queueDuration = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames: ['name'] as const,
      buckets: WORKQUEUE_SECONDS,
      registers,
    });
    this.#workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes',
      labelNames: ['name'] as const,
      buckets: WORKQUEUE_SECONDS,
      registers,
    });
    new Gauge({
      name: 'leader_election_master_status',
      help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master',
      labelNames: ['name'] as const,
      registers,
      collect() {
        this.set({ name: sources.leaseName }, sources.isLeader() ? 1 : 0);
      },
    });
    this.#jobsCreated = new Counter({
      name: 'framewright_operator_jobs_created_total',
      help: 'Worker Jobs the operator created.',
      registers,
    });
    this.#renderToJob = new Histogram({
      name: 'framewright_operator_render_to_job_seconds',
      help: 'Seconds from a Render’s creationTimestamp to the creation of its first worker Job (single or prepare).',
      buckets: RENDER_TO_JOB_SECONDS,
      registers,
    });
  }

  /** One reconcile pass ended with `result` after `seconds`. */
  reconciled(result: ReconcileResult, seconds: number): void {
    this.#reconciles.inc({ ...this.#controller, result });
    if (result === 'error') this.#reconcileErrors.inc(this.#controller);
    this.#reconcileTime.observe(this.#controller, seconds);
  }

  /**
   * A worker Job of `stage` was created for a Render created at `renderCreated` (creationTimestamp).
   * Every Job counts; only a render's first (single or prepare) is its wait for a Job: the segments
   * and join Jobs follow the previous stage's work, not the Render's creation.
   */
  jobCreated(stage: 'single' | 'prepare' | 'segments' | 'join', renderCreated: Date | undefined, now: Date): void {
    this.#jobsCreated.inc();
    if ((stage === 'single' || stage === 'prepare') && renderCreated && !Number.isNaN(renderCreated.getTime())) {
      this.#renderToJob.observe(Math.max(0, (now.getTime() - renderCreated.getTime()) / 1000));
    }
  }

  /** The work queue's hooks (operator/kube/work-queue.ts WorkQueueMetrics). */
  workQueue(): { added(): void; queued(seconds: number): void; worked(seconds: number): void; retried(): void } {
    return {
      added: () => this.#adds.inc(this.#queue),
      queued: (s) => this.#queueDuration.observe(this.#queue, s),
      worked: (s) => this.#workDuration.observe(this.#queue, s),
      retried: () => this.#retries.inc(this.#queue),
    };
  }
}
