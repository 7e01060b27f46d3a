import type { Database } from '../store/database.ts';
import type { Plan } from '../store/types.ts';
import type { AuthContext } from './auth/auth-context.ts';
import type { KeyCache } from './auth/key-cache.ts';
import type { PlanRules } from './billing/plans.ts';
import type { ApiConfig } from './config.ts';
import type { ExecutorPort } from './execution/executor.ts';
import type { IdempotencyService } from './plugins/idempotency.ts';
import type { LimitDecision, RateLimiter } from './rate-limit/limiter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: ApiConfig;
    db: Database;
    limiter: RateLimiter;
    executor: ExecutorPort;
    /** The clock; tests inject one. */
    now: () => Date;
    idempotency: IdempotencyService;
    plans: Record<Plan, PlanRules>;
    /** Verified API keys (auth plugin); `delete(hash)` evicts one at once. */
    keyCache: KeyCache;
    /** Set `draining` when shutting down: /readyz then answers 503 while requests still run. */
    readiness: { draining: boolean };
  }
  interface FastifyRequest {
    /** Null on public routes and before the auth hook ran; use `requireAuth`. */
    auth: AuthContext | null;
    rateLimit: LimitDecision | null;
  }
  interface FastifyContextConfig {
    /** No API key needed (OpenAPI document, JSON Schema, error docs). */
    public?: boolean;
    /**
     * The JSON body field holding a movie document (`movie`, `body`): a NUL or lone surrogate in it
     * is a finding at a path relative to the document, as the movie library's findings are.
     */
    movieDocument?: string;
    /** A preview token (api/previews/preview-token.ts) may call it; no other route takes one. */
    preview?: boolean;
    /** The route answers that finding itself (`documentFindingOf`) instead of a 400: a dry run. */
    answersDocumentFindings?: boolean;
  }
}
