import { RETENTION_DAYS } from '../../store/lifecycle/retention.ts';
import type { Plan } from '../../store/types.ts';

/** What a plan allows. Concurrency and rate limits can be overridden by configuration. */
export interface PlanRules {
  /** Requests per minute per key (sliding window). */
  rateLimitPerMinute: number;
  /** Renders queued or in progress at once, per account. */
  concurrency: number;
  /** Days an output is kept (expiresAt); the lifecycle owns the table (store/lifecycle/retention.ts). */
  retentionDays: number;
  webhooks: boolean;
  /** Every render of the plan carries the watermark. */
  watermark: boolean;
}

const DEFAULT_PLANS: Readonly<Record<Plan, PlanRules>> = {
  trial: {
    rateLimitPerMinute: 60,
    concurrency: 1,
    retentionDays: RETENTION_DAYS.trial,
    webhooks: false,
    watermark: true,
  },
  starter: {
    rateLimitPerMinute: 300,
    concurrency: 3,
    retentionDays: RETENTION_DAYS.starter,
    webhooks: true,
    watermark: false,
  },
  pro: {
    rateLimitPerMinute: 600,
    concurrency: 10,
    retentionDays: RETENTION_DAYS.pro,
    webhooks: true,
    watermark: false,
  },
  studio: {
    rateLimitPerMinute: 1200,
    concurrency: 25,
    retentionDays: RETENTION_DAYS.studio,
    webhooks: true,
    watermark: false,
  },
};

/** Credits a new trial account starts with (docs/api.md, Plans). */
export const TRIAL_CREDITS = 300;

/** Parses "trial=1,pro=12" into per-plan numbers (the env format of PLAN_CONCURRENCY and PLAN_RATE_LIMITS). */
export function parsePlanNumbers(value: string | undefined): Partial<Record<Plan, number>> {
  const out: Partial<Record<Plan, number>> = {};
  if (!value) return out;
  for (const part of value.split(',')) {
    const [plan, n] = part.split('=');
    out[plan as Plan] = Number(n);
  }
  return out;
}

export function planTable(overrides: {
  concurrency?: Partial<Record<Plan, number>>;
  rateLimitPerMinute?: Partial<Record<Plan, number>>;
}): Record<Plan, PlanRules> {
  const table = structuredClone(DEFAULT_PLANS) as Record<Plan, PlanRules>;
  for (const plan of Object.keys(table) as Plan[]) {
    const c = overrides.concurrency?.[plan];
    const r = overrides.rateLimitPerMinute?.[plan];
    if (c !== undefined) table[plan].concurrency = c;
    if (r !== undefined) table[plan].rateLimitPerMinute = r;
  }
  return table;
}
