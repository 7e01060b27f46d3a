/** The outcome of one rate-limit check, enough to fill the X-RateLimit-* headers. */
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds at which the oldest counted request leaves the window. */
  resetAtMs: number;
}

/** One sliding window: at most `limit` requests under `key` in any `windowMs`. */
export interface Window {
  key: string;
  limit: number;
  windowMs: number;
}

/** What `hitUnlessGated` decided: `hit` is null when the gate refused (nothing was counted). */
export interface GatedDecision {
  gate: LimitDecision;
  hit: LimitDecision | null;
}

/**
 * The rate-limiter port: a sliding-window log per key. `hit` counts a request when it is allowed;
 * `peek` only looks (used to refuse an address with too many failed logins before checking a key).
 * `hitUnlessGated` is peek-then-hit as one atomic step (one round trip on Redis): the hot path of
 * an authenticated request whose key is already verified.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision>;
  peek(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision>;
  hitUnlessGated(gate: Window, counted: Window, nowMs: number): Promise<GatedDecision>;
  /**
   * The same decision at once, for a limiter that decides in-process (no I/O): the auth hook then
   * passes a cached key without waiting for a promise. Absent on limiters that must ask a server.
   */
  hitUnlessGatedNow?(gate: Window, counted: Window, nowMs: number): GatedDecision;
  close(): Promise<void>;
}

/** Seconds a client should wait, for Retry-After (at least 1). */
export function retryAfterSec(decision: LimitDecision, nowMs: number): number {
  return Math.max(1, Math.ceil((decision.resetAtMs - nowMs) / 1000));
}
