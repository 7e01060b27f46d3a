import { jitteredDelay } from '../../lib/backoff.ts';

/** Capped exponential backoff for provider errors: 0.5 s, 1 s, 2 s, ... up to 8 s. */
const BACKOFF = { baseMs: 500, factor: 2, capMs: 8000 } as const;

/**
 * Delay before retry number `retry` (0-based), jittered (lib/backoff.ts). A server's Retry-After
 * wins when present, still capped so one answer cannot eat the whole budget.
 */
export function backoffDelay(retry: number, random: () => number, retryAfterMs: number | null = null): number {
  if (retryAfterMs !== null && retryAfterMs >= 0) return Math.min(retryAfterMs, BACKOFF.capMs);
  return jitteredDelay(BACKOFF, retry, random);
}

/** Retry-After as milliseconds: `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now: number): number | null {
  if (!headers) return null;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms)) return ms;
  const raw = headers.get('retry-after');
  if (raw === null) return null;
  const secs = Number(raw);
  if (Number.isFinite(secs)) return secs * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
