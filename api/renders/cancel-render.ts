import type { FastifyInstance } from 'fastify';
import { AppError, type ErrorBody } from '../../lib/errors.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import type { RenderRow } from '../../store/types.ts';
import type { AuthContext } from '../auth/auth-context.ts';

/** The message of a render cancelled through the API (its error, RENDER_CANCELLED). */
const CANCELLED_BY_REQUEST =
  'The render was cancelled by a request (POST /v1/renders/{id}/cancel). Nothing was charged and the reserved credits were released.';

/**
 * POST /v1/renders/{id}/cancel. A queued, preparing or rendering render is cancelled by the
 * lifecycle in one transaction (failed RENDER_CANCELLED, nothing charged, its reservation
 * released, render.failed to its webhook), then the executor stops what runs it (the in-process
 * worker, or the Render and its Jobs). A render already cancelled answers as it is (cancelling is
 * idempotent by itself, so the route takes no Idempotency-Key); the executor is asked again, which
 * retries a Render the first request could not delete. Any other finished render is
 * RENDER_NOT_CANCELLABLE; another account's, or the other key mode's, is NOT_FOUND.
 */
export async function cancelRender(app: FastifyInstance, auth: AuthContext, id: string): Promise<RenderRow> {
  const result = await lifecycle.cancel(
    { db: app.db, now: app.now, observer: app.metrics.render },
    id,
    lifecycle.cancelledError(app.config.publicBaseUrl, CANCELLED_BY_REQUEST),
    { accountId: auth.accountId, mode: auth.mode },
  );
  if (!result) throw new AppError('NOT_FOUND', `No render ${id}.`, { path: 'id' });
  const { render } = result;
  const code = (render.error as ErrorBody | null)?.code;
  if (!result.cancelled && code !== 'RENDER_CANCELLED') {
    throw new AppError(
      'RENDER_NOT_CANCELLABLE',
      `Render ${id} has finished (${render.status}${code ? `, ${code}` : ''}); only a queued, preparing or rendering render can be cancelled.`,
    );
  }
  await app.executor.cancel(render);
  return render;
}
