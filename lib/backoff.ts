/** A capped exponential schedule: baseMs, baseMs * factor, ... never above capMs. */
export interface BackoffPolicy {
  baseMs: number;
  factor: number;
  capMs: number;
}

/**
 * Delay before retry number `retry` (0-based), with "equal jitter": half fixed, half random, so
 * concurrent callers spread out but every wait is at least half the nominal one.
 */
export function jitteredDelay(policy: BackoffPolicy, retry: number, random: () => number = Math.random): number {
  const nominal = Math.min(policy.capMs, policy.baseMs * policy.factor ** retry);
  return Math.round(nominal / 2 + (random() * nominal) / 2);
}

/** How a background loop waits after a failure: 0.5 s doubling to 10 s. */
export const LOOP_BACKOFF: BackoffPolicy = { baseMs: 500, factor: 2, capMs: 10_000 };

export interface RetryOptions {
  /** Which errors are worth waiting out; any other is thrown at once. */
  isTransient: (err: unknown) => boolean;
  /** Called before each wait (to log it). */
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
  /** Stops the retries: the last error is thrown. */
  signal?: AbortSignal;
  policy?: BackoffPolicy;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Runs `fn` until it succeeds, waiting out transient errors with a capped backoff: a write that
 * must not be lost (a render's outcome) survives a database restart. `fn` must be idempotent, as
 * an attempt that failed on the way back (the commit went through, the answer was lost) runs again.
 */
export async function retryTransient<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!options.isTransient(err) || options.signal?.aborted) throw err;
      const delay = jitteredDelay(options.policy ?? LOOP_BACKOFF, attempt);
      options.onRetry?.(err, attempt + 1, delay);
      await sleep(delay, options.signal);
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
