import type { V1Job } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import type { KubeAccess } from '../lib/kube/access.ts';
import { RendersClient } from '../lib/kube/client.ts';
import { API_VERSION, PLURAL, type Render } from '../lib/kube/render-resource.ts';
import type { Logger } from '../lib/logger.ts';
import { DrawingMetrics } from '../lib/metrics/drawing-metrics.ts';
import { OperatorMetrics } from '../lib/metrics/operator-metrics.ts';
import { createRegistry } from '../lib/metrics/registry.ts';
import { RenderMetrics } from '../lib/metrics/render-metrics.ts';
import type { Database } from '../store/database.ts';
import { type Actions, jobChangeMatters, renderChangeMatters } from './decide.ts';
import { MANAGED_BY, RENDER_LABEL } from './job-spec.ts';
import { Informer } from './kube/informer.ts';
import { LeaderElector } from './kube/leader-election.ts';
import { WorkQueue } from './kube/work-queue.ts';
import { Reconciler } from './reconciler.ts';
import type { OperatorSettings } from './settings.ts';

export interface OperatorOptions {
  kc: KubeAccess;
  db: Database;
  settings: OperatorSettings;
  publicBaseUrl: string;
  logger: Logger;
  now?: () => Date;
  /** Every Render is reconciled again this often, events or not (default 60 s). */
  resyncMs?: number;
  /** For tests: the informers' watchdog silence. */
  silenceMs?: number;
  onActions?: (name: string, actions: Actions) => void;
  /** Where its metrics go (default: a registry of its own); the operator's /metrics serves it. */
  registry?: Registry;
}

/** controller-runtime's `controller` label, the work queue's and the Lease's names. */
const CONTROLLER = 'render';
const LEASE_NAME = 'framewright-operator';

const byName = (o: { metadata?: { name?: string } }) => o.metadata?.name ?? '';

/**
 * `framewright operator`: informers on Renders and on the Jobs it owns feed a keyed work queue;
 * while this replica holds the leader Lease, N workers reconcile one Render each at a time.
 * Replicas that do not lead keep their caches warm, so a takeover starts at once.
 */
export class Operator {
  readonly renders: Informer<Render>;
  readonly jobs: Informer<V1Job>;
  readonly queue: WorkQueue;
  readonly elector: LeaderElector | undefined;
  readonly registry: Registry;
  readonly metrics: OperatorMetrics;
  private readonly reconciler: Reconciler;
  private stopping = false;
  /** Reconcile passes run so far (logged at shutdown; `framewright bench operator` reads it). */
  reconciles = 0;
  private working: Promise<void> | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  /** The current leadership term; aborted when it ends. */
  private term: AbortSignal | undefined;

  constructor(private readonly opts: OperatorOptions) {
    const { kc, settings, logger } = opts;
    const ns = settings.job.namespace;
    const silence = opts.silenceMs ? { silenceMs: opts.silenceMs } : {};
    this.renders = new Informer<Render>(kc, {
      path: `/apis/${API_VERSION}/namespaces/${ns}/${PLURAL}`,
      keyOf: byName,
      logger: logger.child({ informer: 'renders' }),
      ...silence,
    });
    this.jobs = new Informer(kc, {
      path: `/apis/batch/v1/namespaces/${ns}/jobs`,
      labelSelector: `app.kubernetes.io/managed-by=${MANAGED_BY}`,
      keyOf: byName,
      logger: logger.child({ informer: 'jobs' }),
      ...silence,
    });
    this.registry = opts.registry ?? createRegistry();
    this.metrics = new OperatorMetrics(this.registry, {
      controller: CONTROLLER,
      queueName: CONTROLLER,
      leaseName: LEASE_NAME,
      queueDepth: () => this.queue.length,
      // Without leader election this replica is the only one, and leads.
      isLeader: () => (this.elector ? this.elector.isLeader() : !this.stopping),
    });
    this.queue = new WorkQueue({ logger: logger.child({ component: 'queue' }), metrics: this.metrics.workQueue() });
    const now = opts.now ?? (() => new Date());
    this.reconciler = new Reconciler({
      kc,
      // The operator completes and fails renders in the cluster shape: it counts those transitions.
      lifecycle: { db: opts.db, now, observer: new RenderMetrics(this.registry) },
      renders: new RendersClient(kc, ns),
      renderCache: this.renders,
      jobCache: this.jobs,
      settings: settings.job,
      renderTtlSec: settings.renderTtlSec,
      publicBaseUrl: opts.publicBaseUrl,
      logger,
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.onActions ? { onActions: opts.onActions } : {}),
      onJobCreated: (render, stage) =>
        this.metrics.jobCreated(
          stage,
          render.metadata.creationTimestamp ? new Date(render.metadata.creationTimestamp) : undefined,
          now(),
        ),
    });
    // Only changes that can change a decision make a pass (our own status writes coming back, a
    // Job we just created, metadata churn do not): under load, passes are the operator's budget.
    const enqueue = (name: string) => this.queue.add(name);
    // Which GL the workers draw with, as their pods report it on the Renders.
    const drawing = new DrawingMetrics(this.registry);
    this.renders.addHandlers({
      // A Render without a Job yet goes first: its latency is the one users wait on.
      onAdd: (r) => {
        if (r.status?.drawing) drawing.drew(r.status.drawing);
        return r.status?.jobName ? enqueue(r.metadata.name) : this.queue.addUrgent(r.metadata.name);
      },
      onUpdate: (old, r) => {
        if (r.status?.drawing && r.status.drawing.renderer !== old.status?.drawing?.renderer)
          drawing.drew(r.status.drawing);
        if (renderChangeMatters(old, r)) enqueue(r.metadata.name);
      },
      onDelete: (r) => enqueue(r.metadata.name),
    });
    const renderOf = (job: V1Job) => job.metadata?.labels?.[RENDER_LABEL] ?? job.metadata?.name ?? '';
    this.jobs.addHandlers({
      onAdd: (job) => {
        const name = renderOf(job);
        if (this.renders.get(name)?.status?.jobName !== job.metadata?.name) enqueue(name);
      },
      onUpdate: (old, job) => {
        if (jobChangeMatters(old, job)) enqueue(renderOf(job));
      },
      onDelete: (job) => enqueue(renderOf(job)),
    });
    if (settings.leaderElection.enabled) {
      this.elector = new LeaderElector(kc, {
        namespace: ns,
        name: LEASE_NAME,
        identity: settings.identity,
        leaseDurationMs: settings.leaderElection.leaseDurationMs,
        renewDeadlineMs: settings.leaderElection.renewDeadlineMs,
        retryPeriodMs: settings.leaderElection.retryPeriodMs,
        logger: logger.child({ component: 'leader-election' }),
        onStartedLeading: (term) => this.lead(term),
        onStoppedLeading: () => this.follow(),
      });
    }
  }

  start(): void {
    this.renders.start();
    this.jobs.start();
    // The workers run for the process's life; they reconcile only during a leadership term.
    this.working = this.queue.run(async (name) => {
      const term = this.term;
      if (!term || term.aborted) return undefined;
      this.reconciles++;
      const started = performance.now();
      let again: { requeueAfterMs?: number } | undefined;
      try {
        again = await this.reconciler.reconcile(name);
      } catch (err) {
        this.metrics.reconciled('error', (performance.now() - started) / 1000);
        throw err;
      }
      this.metrics.reconciled('success', (performance.now() - started) / 1000);
      return again;
    }, this.opts.settings.workers);
    if (this.elector) this.elector.start();
    else this.lead(new AbortController().signal);
  }

  /** A term begins: once both caches are synced, every Render is reconciled, then on each change. */
  private lead(term: AbortSignal): void {
    this.opts.logger.info('leading: reconciling Renders');
    void (async () => {
      while (!(this.renders.hasSynced() && this.jobs.hasSynced())) {
        if (term.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (term.aborted) return;
      this.opts.logger.info({ renders: this.renders.keys().length }, 'caches synced; reconciling');
      this.term = term;
      this.enqueueAll();
      clearInterval(this.resyncTimer);
      this.resyncTimer = setInterval(() => this.enqueueAll(), this.opts.resyncMs ?? 60_000);
      this.resyncTimer.unref();
    })();
  }

  /**
   * The term ended (the Lease could not be renewed in time, or another replica holds it): stop
   * acting at once, since another replica may lead now. A pass already running finishes; every
   * action it takes is idempotent. The elector keeps competing, and the caches stay warm.
   */
  private follow(): void {
    clearInterval(this.resyncTimer);
    this.opts.logger.warn('no longer leading; waiting to lead again');
  }

  private enqueueAll(): void {
    for (const name of this.renders.keys()) this.queue.add(name);
  }

  /**
   * Ready to reconcile: not stopping, both informers synced, the database answering. A replica
   * that does not lead is ready too (it takes over at once): readiness is not leadership.
   */
  async ready(): Promise<boolean> {
    if (this.stopping || !this.renders.hasSynced() || !this.jobs.hasSynced()) return false;
    await this.opts.db.sql`SELECT 1`;
    return !this.stopping;
  }

  /** Stops reconciling, lets passes in flight finish, releases the Lease, stops the informers. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.term = undefined;
    clearInterval(this.resyncTimer);
    await this.queue.shutdown({ drain: false });
    await this.working;
    if (this.elector) await this.elector.release();
    await Promise.all([this.renders.stop(), this.jobs.stop()]);
  }
}
