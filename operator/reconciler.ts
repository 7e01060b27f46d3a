import type { V1Job, V1PodList } from '@kubernetes/client-node';
import { errorBody } from '../lib/errors.ts';
import type { KubeAccess } from '../lib/kube/access.ts';
import { isAlreadyExists, isNotFound, type RendersClient } from '../lib/kube/client.ts';
import { kubeRequest } from '../lib/kube/http.ts';
import { API_VERSION, KIND, type Render, renderIdFromName } from '../lib/kube/render-resource.ts';
import type { Logger } from '../lib/logger.ts';
import * as lifecycle from '../store/lifecycle/render-lifecycle.ts';
import { type Actions, currentStage, decide, type Event, isJobFailed, isJobFinished, type RowView } from './decide.ts';
import { WORKER_CONTAINER, workerJob } from './job-spec.ts';
import type { WorkerJobSettings } from './settings.ts';
import { STAGES, type Stage, stageJobName } from './stages.ts';

/** The catalogue code of a render cancelled by deleting its Render (docs/errors). */
const CANCELLED_MESSAGE = 'The render was cancelled: its Render resource was deleted. Nothing was charged.';

export interface ReconcilerDeps {
  kc: KubeAccess;
  lifecycle: lifecycle.LifecycleDeps;
  renders: RendersClient;
  /** The informers' caches: Renders and the Jobs this operator owns, keyed by name. */
  renderCache: { get(name: string): Render | undefined };
  jobCache: { get(name: string): V1Job | undefined };
  settings: WorkerJobSettings;
  /** Seconds a finished Render stays (RENDER_TTL_SECONDS); undefined: kept. */
  renderTtlSec?: number | undefined;
  publicBaseUrl: string;
  logger: Logger;
  now?: () => Date;
  /** Called after each pass with what it did (metrics, benchmarks). */
  onActions?: (name: string, actions: Actions) => void;
  /** Called when this pass created one of the Render's worker Jobs (not when it existed already). */
  onJobCreated?: (render: Render, stage: Stage) => void;
}

/**
 * One reconcile pass of one Render: read what is (the informers' caches, the row in Postgres),
 * let decide() say what to do, do it, write the status once, then record the events. Idempotent:
 * every action checks or tolerates that it was done before (a second leader, a retried pass), and
 * the lifecycle records an outcome only once, so no render is charged twice.
 */
export class Reconciler {
  private readonly now: () => Date;
  private readonly ns: string;

  constructor(private readonly deps: ReconcilerDeps) {
    this.now = deps.now ?? (() => new Date());
    this.ns = deps.settings.namespace;
  }

  /** One pass; returns when to look again, if a finished Render's TTL is running. */
  async reconcile(name: string): Promise<{ requeueAfterMs?: number } | undefined> {
    const renderId = renderIdFromName(name);
    if (!renderId) return undefined; // not ours: a Render created by hand with another name
    let render = this.deps.renderCache.get(name);
    const jobs: Partial<Record<Stage, V1Job>> = {};
    for (const stage of STAGES) {
      const job = this.deps.jobCache.get(stageJobName(name, stage));
      if (job) jobs[stage] = job;
    }
    // A finished Job is decided on the Render as it is now, not as a lagging cache has it: the
    // worker wrote its output there just before it exited.
    const current = currentStage(jobs);
    if (render && current && isJobFinished(jobs[current]!)) render = await this.freshRender(name);
    for (const stage of STAGES) {
      if (render && jobs[stage]?.metadata?.ownerReferences?.every((o) => o.uid !== render?.metadata.uid)) {
        delete jobs[stage]; // a Job left from an earlier Render of the same name, being collected
      }
    }
    const row = await lifecycle.state(this.deps.lifecycle, renderId);
    const view: RowView | undefined = row && { ...row, error: row.error as RowView['error'] };
    // A Job that failed before its render is recorded: why its pods ended (an OOM kill says nothing
    // itself). Read once, when the failure is being recorded, not on every later pass.
    const failedJob = current ? jobs[current] : undefined;
    const terminations =
      failedJob && view && view.status !== 'done' && view.status !== 'failed' && isJobFailed(failedJob)
        ? await this.terminations(failedJob)
        : undefined;
    const actions = decide({
      render,
      row: view,
      jobs,
      segments: this.deps.settings.segments,
      now: this.now(),
      renderTtlSec: this.deps.renderTtlSec,
      terminations,
    });
    await this.act(name, renderId, render, actions);
    this.deps.onActions?.(name, actions);
    return actions.requeueAfterMs === undefined ? undefined : { requeueAfterMs: actions.requeueAfterMs };
  }

  /** Why the kubelet ended the worker container of each failed pod of `job` (OOMKilled, Error, ...). */
  private async terminations(job: V1Job): Promise<string[] | undefined> {
    const selector = encodeURIComponent(`batch.kubernetes.io/job-name=${job.metadata?.name ?? ''}`);
    try {
      const pods = await kubeRequest<V1PodList>(this.deps.kc, {
        method: 'GET',
        path: `/api/v1/namespaces/${this.ns}/pods?labelSelector=${selector}`,
        timeoutMs: 30_000,
      });
      return pods.items
        .filter((p) => p.status?.phase === 'Failed')
        .flatMap((p) => {
          const st = p.status?.containerStatuses?.find((c) => c.name === WORKER_CONTAINER);
          const reason = (st?.state?.terminated ?? st?.lastState?.terminated)?.reason;
          return reason ? [reason] : [];
        });
    } catch (err) {
      // The reason is a better message, not a decision: without it the failure reads as before.
      this.deps.logger.warn({ err, job: job.metadata?.name }, 'could not read the failed pods of a Job');
      return undefined;
    }
  }

  private async freshRender(name: string): Promise<Render | undefined> {
    try {
      return await this.deps.renders.get(name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async act(name: string, renderId: string, render: Render | undefined, a: Actions): Promise<void> {
    const log = this.deps.logger.child({ render: name });
    const lc = this.deps.lifecycle;
    if (a.cancel) {
      const error = lifecycle.cancelledError(this.deps.publicBaseUrl, CANCELLED_MESSAGE);
      if ((await lifecycle.cancel(lc, renderId, error))?.cancelled) {
        log.info('render cancelled: its Render was deleted');
      }
      return;
    }
    if (a.deleteRender) {
      if (a.expired) log.info('the Render finished longer than RENDER_TTL_SECONDS ago; deleting it');
      else log.warn('the Render has no render row; deleting it');
      await this.deps.renders.delete(name).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
      return;
    }
    if (!render) return;
    if (a.createJob) {
      try {
        await kubeRequest(this.deps.kc, {
          method: 'POST',
          path: `/apis/batch/v1/namespaces/${this.ns}/jobs`,
          body: workerJob(
            {
              metadata: { name, uid: render.metadata.uid ?? '' },
              spec: { ...render.spec },
            },
            { ...this.deps.settings, maxAttempts: render.spec.maxAttempts ?? this.deps.settings.maxAttempts },
            a.createJob,
          ),
          timeoutMs: 30_000,
        });
        this.deps.onJobCreated?.(render, a.createJob.stage);
      } catch (err) {
        // Created by an earlier pass whose answer was lost, or by another leader: the cache will show it.
        if (!isAlreadyExists(err)) throw err;
      }
    }
    if (a.progress) await lifecycle.reportProgress(lc, renderId, null, a.progress);
    if (a.complete) await lifecycle.complete(lc, renderId, null, a.complete);
    if (a.fail) {
      const e = a.fail;
      await lifecycle.fail(lc, renderId, null, this.error(e.code, e.message, e.path));
    }
    for (const job of a.deleteJobs ?? []) {
      await kubeRequest(this.deps.kc, {
        method: 'DELETE',
        path: `/apis/batch/v1/namespaces/${this.ns}/jobs/${job}`,
        query: { propagationPolicy: 'Background' },
        timeoutMs: 30_000,
      }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    }
    // Only now, with the outcome committed in Postgres, may the Jobs (and their record) go.
    for (const job of a.jobTtl ?? []) {
      await kubeRequest(this.deps.kc, {
        method: 'PATCH',
        path: `/apis/batch/v1/namespaces/${this.ns}/jobs/${job}`,
        contentType: 'application/merge-patch+json',
        body: { spec: { ttlSecondsAfterFinished: this.deps.settings.ttlSecondsAfterFinished } },
        timeoutMs: 30_000,
      }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    }
    if (a.status) {
      try {
        await this.deps.renders.patchStatus(name, a.status);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        return;
      }
    }
    // Best effort, and not awaited: a pass (and its worker) does not wait on an Event's round trip.
    for (const e of a.events) void this.event(render, e, log);
  }

  private error(code: Parameters<typeof errorBody>[1], message: string, path?: string) {
    return errorBody(this.deps.publicBaseUrl, code, message, path);
  }

  /** A core/v1 Event on the Render: `kubectl describe render` tells its story. Best effort. */
  private async event(render: Render, e: Event, log: Logger): Promise<void> {
    const at = this.now().toISOString();
    await kubeRequest(this.deps.kc, {
      method: 'POST',
      path: `/api/v1/namespaces/${this.ns}/events`,
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: `${render.metadata.name}.` },
        involvedObject: {
          apiVersion: API_VERSION,
          kind: KIND,
          name: render.metadata.name,
          namespace: this.ns,
          uid: render.metadata.uid,
        },
        type: e.type,
        reason: e.reason,
        message: e.message,
        source: { component: 'framewright-operator' },
        reportingComponent: 'framewright-operator',
        firstTimestamp: at,
        lastTimestamp: at,
        count: 1,
      },
      timeoutMs: 10_000,
    }).catch((err: unknown) => log.warn({ err, reason: e.reason }, 'recording an event failed'));
  }
}
