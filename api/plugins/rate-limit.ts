import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../context.ts';
import { type LimitDecision, retryAfterSec, type Window } from '../rate-limit/limiter.ts';

export const RATE_WINDOW_MS = 60_000;

/** The per-key window of the caller's plan. */
export function rateWindow(app: FastifyInstance, auth: AuthContext): Window {
  return { key: `key:${auth.keyId}`, limit: app.plans[auth.plan].rateLimitPerMinute, windowMs: RATE_WINDOW_MS };
}

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
      // The auth plugin already counted a cached key's request (with its failure gate).
      const window = rateWindow(app, auth);
      const decision = request.rateLimit ?? (await app.limiter.hit(window.key, window.limit, window.windowMs, now));
      request.rateLimit = decision;
      const limit = window.limit;
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
