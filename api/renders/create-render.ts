import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { estimateDurationSec, outputFrame, resolveMovie } from '../../movie/index.ts';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import { priceRender } from '../../store/lifecycle/pricing.ts';
import { getRender, insertRenderIfAllowed, type NewRender } from '../../store/renders-repo.ts';
import type { RenderRow } from '../../store/types.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { gateError, gateRules, withAccountLock } from '../billing/gate.ts';
import { checkWebhookUrl } from './webhook-url.ts';

export interface CreateRenderInput {
  /** The movie document as sent (or the template body, with `draft` applied). */
  document: unknown;
  variables: unknown;
  webhookUrl: string | undefined;
  templateId: string | null;
}

const RENDER_RESOURCE = 'render';

/**
 * The one creation path of POST /renders and POST /templates/{id}/renders: validation and variable
 * resolution (pure), the webhook_url check (a DNS lookup), the price of the estimated length, then
 * the gate: framewright_create_render decides in the database, under the account row's lock,
 * whether the plan allows a webhook, the concurrency cap and the credits allow the render, inserts
 * it if so, and says why not otherwise; this only maps the reason to its error (gateError). Without
 * an Idempotency-Key that is one round trip. With one, it runs in ONE transaction with the account
 * row locked: idempotency claim (a replay answers the stored render), the gate, the idempotency
 * record; any failure rolls everything back. Only after commit is the render handed to the
 * executor.
 */
export async function createRender(
  app: FastifyInstance,
  request: FastifyRequest,
  auth: AuthContext,
  input: CreateRenderInput,
): Promise<{ render: RenderRow; replayed: boolean }> {
  const idemKey = app.idempotency.keyOf(request);
  const resolved = resolveMovie(input.document, input.variables ?? {});
  if (!resolved.ok) throw AppError.fromFindings(resolved.findings);
  if (input.webhookUrl !== undefined) {
    await checkWebhookUrl(input.webhookUrl, { allowPrivate: app.config.allowPrivateUrls });
  }
  const movie = resolved.value;
  const draft = (movie as { draft?: unknown }).draft === true;
  const frame = outputFrame(movie, { draft });
  const estimatedSec = estimateDurationSec(movie);
  // The reservation is the price of the estimated length, by the function that prices the finished
  // render at completion (store/lifecycle/render-lifecycle.ts complete): full-size frame, drafts
  // half, test-mode keys free.
  // The one reading of the movie's output.format: stored with the render, read from there after.
  const format = movieOutputFormat(movie);
  const cost = priceRender(
    { movie, outputFormat: format, draft, mode: auth.mode, width: frame.width, height: frame.height },
    estimatedSec,
  ).credits;
  const claim = idemKey
    ? {
        accountId: auth.accountId,
        mode: auth.mode,
        key: idemKey,
        requestHash: app.idempotency.requestHash(request, auth),
      }
    : undefined;

  const row: Omit<NewRender, 'watermark'> = {
    id: newId('rnd'),
    accountId: auth.accountId,
    mode: auth.mode,
    keyId: auth.keyId,
    draft,
    movie,
    outputFormat: format,
    width: frame.width,
    height: frame.height,
    fps: frame.fps,
    estimatedSec,
    reservedCredits: cost,
    templateId: input.templateId,
    webhookUrl: input.webhookUrl ?? null,
    createdAt: app.now(),
  };
  const rules = gateRules(app.plans);

  if (!claim) {
    const made = await insertRenderIfAllowed(app.db.sql, row, rules);
    if (!made.render) throw gateError(made, cost);
    await app.executor.submit(made.render);
    return { render: made.render, replayed: false };
  }

  const result = await withAccountLock(app.db, auth.accountId, async (tx) => {
    const prior = await app.idempotency.claim(tx, claim);
    if (prior) {
      const stored = await getRender(tx, auth, prior.resourceId);
      if (!stored) throw new AppError('INTERNAL', 'The render of this Idempotency-Key no longer exists.');
      return { render: stored, replayed: true };
    }
    const made = await insertRenderIfAllowed(tx, row, rules);
    if (!made.render) throw gateError(made, cost);
    await app.idempotency.record(tx, { ...claim, resourceType: RENDER_RESOURCE, resourceId: made.render.id });
    return { render: made.render, replayed: false };
  });
  if (!result.replayed) await app.executor.submit(result.render);
  return result;
}
