import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { getScript, insertScript, type ScriptRow } from '../../store/scripts-repo.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { availableCredits, chargeCredits, withAccountLock } from '../billing/gate.ts';
import { generateScript } from './generate-script.ts';
import { maxScriptCredits, scriptCredits } from './script-credits.ts';
import type { ScriptsConfig } from './scripts-config.ts';
import { validateScriptRequest } from './validate-script-request.ts';

const SCRIPT_RESOURCE = 'script';

async function replay(tx: Parameters<typeof getScript>[0], auth: AuthContext, id: string): Promise<ScriptRow> {
  const row = await getScript(tx, auth, id);
  if (!row) throw new AppError('INTERNAL', 'The script of this Idempotency-Key no longer exists.');
  return row;
}

/**
 * POST /v1/scripts. The model call takes tens of seconds, so it runs outside any transaction:
 * 1. a short transaction replays an earlier request with the same Idempotency-Key, or checks the
 *    balance against the largest possible charge (INSUFFICIENT_CREDITS before any model call);
 * 2. generation, with its own retries and budget (LLM_FAILED stores and charges nothing);
 * 3. a second transaction claims the key again (a parallel duplicate that finished first wins and
 *    is replayed), charges the real cost and stores the script with its idempotency record.
 */
export async function createScript(
  app: FastifyInstance,
  request: FastifyRequest,
  auth: AuthContext,
  config: ScriptsConfig,
  log: FastifyBaseLogger,
): Promise<{ script: ScriptRow; replayed: boolean }> {
  const checked = validateScriptRequest(request.body);
  if (!checked.ok) throw AppError.fromFindings(checked.findings);
  const req = checked.value;
  const idemKey = app.idempotency.keyOf(request);
  const claim = idemKey
    ? {
        accountId: auth.accountId,
        mode: auth.mode,
        key: idemKey,
        requestHash: app.idempotency.requestHash(request, auth),
      }
    : undefined;
  // Test-mode keys exercise the whole path but never cost anything, as for renders.
  const free = auth.mode === 'test';

  const early = await withAccountLock(app.db, auth.accountId, async (tx, account) => {
    if (claim) {
      const prior = await app.idempotency.claim(tx, claim);
      if (prior) return replay(tx, auth, prior.resourceId);
    }
    const most = free ? 0 : maxScriptCredits(req);
    const available = await availableCredits(tx, account);
    if (most > available) {
      throw new AppError(
        'INSUFFICIENT_CREDITS',
        `A script of ${req.sceneCount ?? 'up to 14'} scenes can cost ${most} credits; ${Math.max(0, available)} are available.`,
      );
    }
    return null;
  });
  if (early) return { script: early, replayed: true };

  let generated: Awaited<ReturnType<typeof generateScript>>;
  try {
    generated = await generateScript(req, {
      model: config.model,
      budgetMs: config.budgetMs,
      requestTimeoutMs: config.requestTimeoutMs,
      clock: config.clock,
      random: config.random,
      logger: log,
    });
  } catch (err) {
    app.metrics.scriptGenerations.inc({
      outcome: err instanceof AppError && err.code === 'LLM_FAILED' ? 'llm_failed' : 'error',
    });
    throw err;
  }
  app.metrics.scriptGenerations.inc({ outcome: 'success' });
  const cost = free ? 0 : scriptCredits(generated.scenes.length);
  const id = newId('scr');

  const stored = await withAccountLock(app.db, auth.accountId, async (tx, account) => {
    if (claim) {
      const prior = await app.idempotency.claim(tx, claim);
      if (prior) return { script: await replay(tx, auth, prior.resourceId), replayed: true };
    }
    if (cost > 0) await chargeCredits(tx, account, { amount: cost, reason: 'script', refId: id });
    const script = await insertScript(tx, {
      id,
      accountId: auth.accountId,
      mode: auth.mode,
      keyId: auth.keyId,
      request: req,
      title: generated.title,
      description: generated.description,
      scenes: generated.scenes,
      meta: { ...generated.meta, creditsCharged: cost },
      chargedCredits: cost,
      now: app.now(),
    });
    if (claim) await app.idempotency.record(tx, { ...claim, resourceType: SCRIPT_RESOURCE, resourceId: id });
    return { script, replayed: false };
  });
  if (!stored.replayed && cost > 0) app.metrics.render.creditsCharged.inc({ reason: 'script' }, cost);
  return stored;
}
