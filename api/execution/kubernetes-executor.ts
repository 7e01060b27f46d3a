import { jitteredDelay, LOOP_BACKOFF } from '../../lib/backoff.ts';
import { isAlreadyExists, isNotFound, type RendersClient } from '../../lib/kube/client.ts';
import { movieObject, renderResource, renderResourceName } from '../../lib/kube/render-resource.ts';
import type { Logger } from '../../lib/logger.ts';
import { extension, outputKind } from '../../lib/output-formats.ts';
import { outputKey } from '../../lib/storage/keys.ts';
import type { ObjectStore } from '../../lib/storage/object-store.ts';
import type { Database } from '../../store/database.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import { getRenderById, startedUnchangedSince } from '../../store/renders-repo.ts';
import type { RenderRow } from '../../store/types.ts';
import type { ExecutorPort } from './executor.ts';

export interface KubernetesExecutorOptions {
  db: Database;
  objects: ObjectStore;
  renders: RendersClient;
  namespace: string;
  /** Where the errors' docsUrl points (PUBLIC_BASE_URL). */
  publicBaseUrl?: string;
  /** Pods tried per render (spec.maxAttempts). */
  maxAttempts?: number;
  logger: Logger;
  now?: () => Date;
  /** How often queued rows are checked for a missing Render (default 10 s). */
  resyncMs?: number;
  /** A queued row younger than this is left to its own request (default 5 s). */
  graceMs?: number;
  /**
   * A started render whose Render is gone and whose row has not changed for this long is failed
   * as cancelled, its credits released (default 60 s: the operator, when it runs, does it first).
   */
  goneGraceMs?: number;
}

/** Why a started render whose Render resource is gone was failed (RENDER_CANCELLED). */
export const RENDER_GONE_MESSAGE =
  'The render was cancelled: its Render resource is gone (deleted while no operator ran, or with the chart). Nothing was charged.';

/**
 * The cluster executor of the API: after gating commits a render as `queued`, its movie goes to
 * the object store (a Render must stay far below etcd's ~1.5 MB object limit, and data: URLs make
 * movies large) and a Render resource is created; the operator takes it from there. An apiserver
 * that cannot be reached never fails the request: the row stays queued, and the resync creates
 * the missing Render once the apiserver answers (every API replica runs it; creating is idempotent).
 */
export class KubernetesExecutor implements ExecutorPort {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  /** Renders being created for requests, by render id (each call is bounded by the client's timeout). */
  private readonly creating = new Map<string, Promise<void>>();
  /** Renders being deleted for cancellations. */
  private readonly deleting = new Set<Promise<void>>();
  private failures = 0;
  private readonly now: () => Date;

  constructor(private readonly opts: KubernetesExecutorOptions) {
    this.now = opts.now ?? (() => new Date());
  }

  /**
   * Creates the Render in the background: the request that made the render answers 201 at once,
   * however slow or unreachable the apiserver is (a failure leaves the row queued for the resync).
   */
  async submit(render: RenderRow): Promise<void> {
    const creating = this.ensureRender(render)
      .catch((err: unknown) => {
        this.opts.logger.warn(
          { err, renderId: render.id },
          'creating the Render failed; it stays queued and is created when the apiserver answers',
        );
      })
      .finally(() => this.creating.delete(render.id));
    this.creating.set(render.id, creating);
  }

  /**
   * Deletes the Render of a cancelled render in the background (its Jobs, owned by it, go with it;
   * the operator, finding it deleted and the row finished, does nothing more). A Render still
   * being created for it is deleted once it exists. If the apiserver cannot be reached, the
   * operator stops the Jobs at its next pass over the Render (its row is failed: decide()'s
   * deleteJobs), and never creates one for a finished row.
   */
  async cancel(render: RenderRow): Promise<void> {
    const name = renderResourceName(render.id);
    const deleting = (async () => {
      await this.creating.get(render.id);
      await this.opts.renders.delete(name).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    })()
      .catch((err: unknown) => {
        this.opts.logger.warn(
          { err, renderId: render.id },
          'deleting the Render of a cancelled render failed; the operator stops its Jobs',
        );
      })
      .finally(() => this.deleting.delete(deleting));
    this.deleting.add(deleting);
  }

  /** Stores the movie and creates the Render; an existing Render (a retry) is fine. */
  async ensureRender(row: RenderRow): Promise<void> {
    const movie = movieObject(row.id, row.movie);
    const format = row.outputFormat;
    await this.opts.objects.putBuffer(movie.key, movie.body, 'application/json');
    const resource = renderResource({
      render: row,
      movie,
      namespace: this.opts.namespace,
      // The output's extension is its format's (the download's Content-Type is taken from it).
      outputKey: outputKey(row.id, extension(format)),
      // Only frames are split over segment pods (gif too: its segments are lossless, paletted at the join).
      ...(outputKind(format) === 'video' ? {} : { singlePod: true }),
      ...(this.opts.maxAttempts ? { maxAttempts: this.opts.maxAttempts } : {}),
    });
    try {
      await this.opts.renders.create(resource);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }

  /** Starts the resync of queued rows that have no Render yet. */
  start(): void {
    const tick = () => {
      if (this.closed) return;
      this.running = this.resync()
        .then(() => {
          this.failures = 0;
        })
        .catch((err: unknown) => {
          this.failures++;
          this.opts.logger.warn({ err }, 'resyncing queued renders failed; retrying');
        })
        .finally(() => {
          const delay = this.failures ? jitteredDelay(LOOP_BACKOFF, this.failures - 1) : (this.opts.resyncMs ?? 10_000);
          if (!this.closed) this.timer = setTimeout(tick, delay);
        });
    };
    tick();
  }

  /**
   * One pass: every queued row older than the grace period gets its Render; every started render
   * whose Render is gone (deleted while no operator ran, or left by `helm uninstall` and removed)
   * fails as cancelled, so its credits are released. Returns how many Renders were created.
   */
  async resync(): Promise<number> {
    const now = this.now().getTime();
    const ids = await lifecycle.queuedBefore(
      { db: this.opts.db, now: this.now },
      new Date(now - (this.opts.graceMs ?? 5_000)),
      500,
    );
    const started = await startedUnchangedSince(
      this.opts.db.sql,
      new Date(now - (this.opts.goneGraceMs ?? 60_000)),
      500,
    );
    if (ids.length === 0 && started.length === 0) return 0;
    const existing = new Set((await this.opts.renders.list()).map((r) => r.metadata.name));
    let created = 0;
    for (const id of ids) {
      if (existing.has(renderResourceName(id))) continue;
      const row = await getRenderById(this.opts.db.sql, id);
      if (row?.status !== 'queued') continue; // taken or finished meanwhile
      await this.ensureRender(row);
      created++;
    }
    if (created) this.opts.logger.info({ created }, 'created Renders for queued renders that had none');
    for (const id of started) {
      if (existing.has(renderResourceName(id))) continue;
      // Whatever holds it, the render can no longer finish. Once only.
      const error = lifecycle.cancelledError(this.opts.publicBaseUrl ?? '', RENDER_GONE_MESSAGE);
      if ((await lifecycle.cancel({ db: this.opts.db, now: this.now }, id, error))?.cancelled) {
        this.opts.logger.warn({ renderId: id }, 'render cancelled: its Render is gone; credits released');
      }
    }
    return created;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all([this.running, ...this.creating.values(), ...this.deleting]);
  }
}
