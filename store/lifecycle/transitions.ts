import type { RenderStatus } from '../types.ts';

/**
 * The render state machine, as pure functions. queued -> preparing (progress 0-20) -> rendering
 * (20-99) -> done (100) | failed. Status and progress only move forward, also across a retry:
 * a render retried from the start keeps the status and progress it had already shown.
 */
const ORDER: Record<RenderStatus, number> = { queued: 0, preparing: 1, rendering: 2, done: 3, failed: 3 };

const PROGRESS_BANDS = {
  preparing: { min: 0, max: 20 },
  rendering: { min: 20, max: 99 },
} as const;

export type ActivePhase = keyof typeof PROGRESS_BANDS;

export function isTerminal(status: RenderStatus): boolean {
  return status === 'done' || status === 'failed';
}

/** The status to show after a worker reports `phase`: never earlier than what was shown. */
export function advanceStatus(current: RenderStatus, phase: ActivePhase): RenderStatus {
  if (isTerminal(current)) return current;
  return ORDER[phase] > ORDER[current] ? phase : current;
}

/**
 * The progress to show: the reported value clamped into the phase's band, and never below what
 * was already shown (a retry re-runs preparation without the bar jumping back).
 */
export function advanceProgress(current: number, phase: ActivePhase, reported: number): number {
  const band = PROGRESS_BANDS[phase];
  const clamped = Math.min(band.max, Math.max(band.min, Math.floor(Number.isFinite(reported) ? reported : 0)));
  return Math.max(current, clamped);
}

/** Delay before the next webhook delivery attempt: 30 s doubling to a 1 h cap, with jitter. */
export function webhookBackoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Webhook deliveries are retried for 24 hours after the event, then given up. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 3_600_000;
