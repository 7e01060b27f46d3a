import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { estimateDurationSec, outputFormat, resolveMovie } from '../../movie/index.ts';
import { priceRender } from '../../store/lifecycle/pricing.ts';
import { getRender, insertRender, insertRenderIfAllowed, type NewRender } from '../../store/renders-repo.ts';
import type { RenderRow } from '../../store/types.ts';
import { gateRender, withAccountUsage } from '../billing/gate.ts';
import type { AuthContext } from '../context.ts';
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
 * resolution (pure), the webhook_url check (a DNS lookup), then in ONE transaction with the account
 * row locked: idempotency claim, plan rules, concurrency cap, credit reservation, the queued row
 * and the idempotency record. Only after commit is the render handed to the executor. Any failure
 * rolls everything back. Without an Idempotency-Key, the same checks run first inside the database
 * in one round trip (insertRenderIfAllowed); only a request they refuse takes the transaction, to
 * be refused with the exact error.
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
  const frame = outputFormat(movie, { draft });
  const estimatedSec = estimateDurationSec(movie);
  // The reservation is the price of the estimated length, by the function that prices the finished
  // render at completion (store/lifecycle/render-lifecycle.ts complete): full-size frame, drafts
  // half, test-mode keys free.
  const cost = priceRender(
    { movie, draft, mode: auth.mode, width: frame.width, height: frame.height },
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

  const newRender = (watermark: boolean): NewRender => ({
    id: newId('rnd'),
    accountId: auth.accountId,
    mode: auth.mode,
    keyId: auth.keyId,
    draft,
    watermark: draft || watermark || auth.mode === 'test',
    movie,
    width: frame.width,
    height: frame.height,
    fps: frame.fps,
    estimatedSec,
    reservedCredits: cost,
    templateId: input.templateId,
    webhookUrl: input.webhookUrl ?? null,
    createdAt: app.now(),
  });

  // The common case in one round trip: no Idempotency-Key, and the plan the key was cached with
  // allows what is asked. The database re-checks plan, cap and credits under the account lock;
  // when anything is off it stores nothing and the transactional path below answers.
  const cachedRules = app.plans[auth.plan];
  if (!claim && (input.webhookUrl === undefined || cachedRules.webhooks)) {
    const render = await insertRenderIfAllowed(app.db.sql, newRender(cachedRules.watermark), {
      plan: auth.plan,
      concurrency: cachedRules.concurrency,
    });
    if (render) {
      await app.executor.submit(render);
      return { render, replayed: false };
    }
  }

  const result = await withAccountUsage(app.db, auth.accountId, async (tx, account, usage) => {
    if (claim) {
      const prior = await app.idempotency.claim(tx, claim);
      if (prior) {
        const row = await getRender(tx, auth, prior.resourceId);
        if (!row) throw new AppError('INTERNAL', 'The render of this Idempotency-Key no longer exists.');
        return { render: row, replayed: true };
      }
    }
    const rules = app.plans[account.plan];
    if (input.webhookUrl !== undefined && !rules.webhooks) {
      throw new AppError(
        'WEBHOOKS_NOT_ALLOWED',
        `The ${account.plan} plan cannot use webhook_url. Poll GET /v1/renders/{id} or upgrade the plan.`,
        { path: 'webhook_url' },
      );
    }
    gateRender(account, usage, rules, cost);
    const render = await insertRender(tx, newRender(rules.watermark));
    if (claim) await app.idempotency.record(tx, { ...claim, resourceType: RENDER_RESOURCE, resourceId: render.id });
    return { render, replayed: false };
  });
  if (!result.replayed) await app.executor.submit(result.render);
  return result;
}
