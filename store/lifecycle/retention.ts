import type { Plan } from '../types.ts';

/**
 * Days a finished render's output is kept, per plan (docs/api.md, Plans). It lives with the lifecycle,
 * which sets `expiresAt` when a render completes; the API's plan table reads it from here.
 */
export const RETENTION_DAYS = {
  trial: 30,
  starter: 90,
  pro: 90,
  studio: 365,
} as const satisfies Record<Plan, number>;

const DAY_MS = 86_400_000;

/** When the output of a render of `plan` finished at `finishedAt` expires. */
export function outputExpiry(plan: Plan, finishedAt: Date): Date {
  return new Date(finishedAt.getTime() + RETENTION_DAYS[plan] * DAY_MS);
}
