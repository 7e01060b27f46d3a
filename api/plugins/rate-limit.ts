import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import { type LimitDecision, retryAfterSec } from '../rate-limit/limiter.ts';

export const RATE_WINDOW_MS = 60_000;

function headersOf(d: LimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(Math.ceil(d.resetAtMs / 1000)),
  };
}

/**
 * Per-key sliding window by plan. Runs after auth; the headers are set before the handler, so
 * they are on every authenticated response, errors included.
 */
export const rateLimitPlugin = fp(
  async (app) => {
    app.decorateRequest('rateLimit', null);
    app.addHook('onRequest', async (request, reply) => {
      const auth = request.auth;
      if (!auth) return;
      const now = app.now().getTime();
      const limit = app.plans[auth.plan].rateLimitPerMinute;
      const decision = await app.limiter.hit(`key:${auth.keyId}`, limit, RATE_WINDOW_MS, now);
      request.rateLimit = decision;
      reply.headers(headersOf(decision));
      if (!decision.allowed) {
        throw new AppError('RATE_LIMITED', `More than ${limit} requests in the last minute for this API key.`, {
          headers: { 'retry-after': String(retryAfterSec(decision, now)) },
        });
      }
    });
  },
  { name: 'rate-limit', dependencies: ['auth', 'rate-limiter'] },
);
