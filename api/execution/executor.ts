import type { RenderRow } from '../../store/types.ts';

/**
 * Where an accepted render goes after its row is committed as `queued`. The pipeline provides the
 * in-process pool (claims rows with FOR UPDATE SKIP LOCKED) and the Kubernetes adapter (writes a
 * Render CR). `submit` must not throw for a render it cannot start now: the row stays queued.
 */
export interface ExecutorPort {
  submit(render: RenderRow): Promise<void>;
  /**
   * Stops whatever runs a render that lifecycle.cancel has just ended (its row is failed
   * RENDER_CANCELLED already): the in-process worker, or the Render and its Jobs. Like `submit`,
   * it never fails the request: what it cannot do now is done by the executor that notices later.
   */
  cancel(render: RenderRow): Promise<void>;
  close(): Promise<void>;
}

/**
 * The default until the pipeline lands: renders stay `queued` in the database, where an executor
 * started later (or in another process) claims them. Nothing is lost by submitting here.
 */
export class QueueOnlyExecutor implements ExecutorPort {
  async submit(_render: RenderRow): Promise<void> {}
  /** Nothing runs here; whatever claims renders from the database sees the row failed. */
  async cancel(_render: RenderRow): Promise<void> {}
  async close(): Promise<void> {}
}
