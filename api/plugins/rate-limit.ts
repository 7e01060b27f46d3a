import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { type LimitDecision, retryAfterSec, type Window } from '../rate-limit/limiter.ts';

export const RATE_WINDOW_MS = 60_000;

/** Each cached key's window, made once: the same key string each time hashes once (limiter maps). */
const windows = new WeakMap<AuthContext, Window>();

/** The per-key window of the caller's plan (do not change it: it is shared). */
export function rateWindow(app: FastifyInstance, auth: AuthContext): Window {
  const limit = app.plans[auth.plan].rateLimitPerMinute;
  let window = windows.get(auth);
  if (window === undefined || window.limit !== limit) {
    window = { key: `key:${auth.keyId}`, limit, windowMs: RATE_WINDOW_MS };
    windows.set(auth, window);
  }
  return window;
}

/**
 * Per-key sliding window by plan. Runs after auth; the headers are set before the handler, so
 * they are on every authenticated response, errors included.
 */
export const rateLimitPlugin = fp(
  async (app) => {
    app.decorateRequest('rateLimit', null);
    /** The headers of `decision` on the reply, and the error to answer when it refused. */
    const apply = (reply: FastifyReply, decision: LimitDecision) => {
      reply
        .header('x-ratelimit-limit', String(decision.limit))
        .header('x-ratelimit-remaining', String(decision.remaining))
        .header('x-ratelimit-reset', String(Math.ceil(decision.resetAtMs / 1000)));
      if (decision.allowed) return undefined;
      return new AppError('RATE_LIMITED', `More than ${decision.limit} requests in the last minute for this API key.`, {
        headers: { 'retry-after': String(retryAfterSec(decision, app.now().getTime())) },
      });
    };
    // A callback hook: a request whose key the auth plugin already counted (with its failure
    // gate, in one limiter call) passes without a promise.
    app.addHook('onRequest', (request, reply, done) => {
      const auth = request.auth;
      if (!auth) return done();
      const decided = request.rateLimit;
      if (decided) return done(apply(reply, decided));
      const window = rateWindow(app, auth);
      app.limiter.hit(window.key, window.limit, window.windowMs, app.now().getTime()).then((decision) => {
        request.rateLimit = decision;
        done(apply(reply, decision));
      }, done);
    });
  },
  { name: 'rate-limit', dependencies: ['auth', 'rate-limiter'] },
);
