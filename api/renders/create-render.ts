import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { estimateDurationSec, outputFormat, resolveMovie } from '../../movie/index.ts';
import { getRender, insertRender } from '../../store/renders-repo.ts';
import type { RenderRow } from '../../store/types.ts';
import { renderCredits } from '../billing/credits.ts';
import { gateRender, withAccountUsage } from '../billing/gate.ts';
import type { AuthContext } from '../context.ts';

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
 * resolution (pure), then in ONE transaction with the account row locked: idempotency claim,
 * plan rules, concurrency cap, credit reservation, the queued row and the idempotency record. Only
 * after commit is the render handed to the executor. Any failure rolls everything back.
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
  const movie = resolved.value;
  const draft = (movie as { draft?: unknown }).draft === true;
  const frame = outputFormat(movie, { draft });
  // Price by the full-size frame: a draft's half resolution is already the "drafts cost half" rule.
  const full = outputFormat({ ...movie, draft: false } as typeof movie);
  const estimatedSec = estimateDurationSec(movie);
  // Test-mode keys exercise the whole path but never cost anything (issue 3, section 3).
  const cost =
    auth.mode === 'test'
      ? 0
      : renderCredits({ durationSec: estimatedSec, width: full.width, height: full.height, draft });
  const claim = idemKey
    ? { accountId: auth.accountId, key: idemKey, requestHash: app.idempotency.requestHash(request, auth) }
    : undefined;

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
    const render = await insertRender(tx, {
      id: newId('rnd'),
      accountId: auth.accountId,
      mode: auth.mode,
      keyId: auth.keyId,
      draft,
      watermark: draft || rules.watermark || auth.mode === 'test',
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
    if (claim) await app.idempotency.record(tx, { ...claim, resourceType: RENDER_RESOURCE, resourceId: render.id });
    return { render, replayed: false };
  });
  if (!result.replayed) await app.executor.submit(result.render);
  return result;
}
