import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../lib/errors.ts';
import { getAccount } from '../../store/accounts-repo.ts';
import { activeUsage } from '../../store/renders-repo.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { errorResponses } from '../http/schemas.ts';
import { RATE_WINDOW_MS } from '../plugins/rate-limit.ts';
import { UsageSchema } from './schemas.ts';

const usage: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/usage',
    {
      schema: {
        operationId: 'getUsage',
        tags: ['account'],
        summary: 'Plan, live credit balance, concurrency and rate limit of the caller',
        response: { 200: UsageSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const [account, active] = await Promise.all([
        getAccount(app.db.sql, auth.accountId),
        activeUsage(app.db.sql, auth.accountId),
      ]);
      if (!account) throw new AppError('UNAUTHORIZED', 'The account of this API key no longer exists.');
      const rules = app.plans[account.plan];
      const rl = request.rateLimit;
      return {
        plan: account.plan,
        mode: auth.mode,
        credits: {
          balance: account.creditBalance,
          reserved: active.reserved,
          available: account.creditBalance - active.reserved,
        },
        concurrency: { limit: rules.concurrency, active: active.active },
        rateLimit: {
          limit: rl?.limit ?? rules.rateLimitPerMinute,
          remaining: rl?.remaining ?? rules.rateLimitPerMinute,
          reset: Math.ceil((rl?.resetAtMs ?? app.now().getTime() + RATE_WINDOW_MS) / 1000),
          windowSec: RATE_WINDOW_MS / 1000,
        },
        retentionDays: rules.retentionDays,
      };
    },
  );
};

export default usage;
