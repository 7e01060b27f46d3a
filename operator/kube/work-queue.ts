import { pino } from 'pino';
import type { Logger } from '../../lib/logger.ts';

/** Per-key exponential backoff, client-go's ItemExponentialFailureRateLimiter. */
export class ExponentialRateLimiter {
  readonly #failures = new Map<string, number>();

  constructor(
    readonly baseMs = 5,
    readonly maxMs = 5 * 60_000,
  ) {}

  /** The wait before the next retry of `key`: baseMs * 2^(retries so far), capped; counts this one. */
  when(key: string): number {
    const n = this.#failures.get(key) ?? 0;
    this.#failures.set(key, n + 1);
    // 2^n overflows to Infinity long after the cap; Math.min copes with that.
    return Math.min(this.maxMs, this.baseMs * 2 ** n);
  }

  /** Retries of `key` since the last `forget`. */
  retries(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  forget(key: string): void {
    this.#failures.delete(key);
  }
}

/** What a handler may ask for: to see the key again after a while (a poll, not a failure). */
interface Requeue {
  requeueAfterMs?: number;
}

/** Handles one key; returns nothing, or a Requeue. */
export type KeyHandler = (key: string) => Promise<Requeue | undefined> | Promise<void> | Requeue | undefined | void;

/** What the queue reports as it works (client-go's workqueue metrics); all optional work is skipped without. */
export interface WorkQueueMetrics {
  /** A key became waiting (a key already waiting is not added again, as client-go counts). */
  added(): void;
  /** A key was handed to a worker `seconds` after it was added. */
  queued(seconds: number): void;
  /** A handler took `seconds`. */
  worked(seconds: number): void;
  /** A key was re-added after its backoff (addRateLimited). */
  retried(): void;
}

export interface WorkQueueOptions {
  rateLimiter?: ExponentialRateLimiter;
  logger?: Logger;
  metrics?: WorkQueueMetrics;
}

export interface WorkQueueStats {
  adds: number;
  /** Keys handed to a handler. */
  processed: number;
  /** Handlers that threw (the key was re-added rate-limited). */
  failures: number;
  /** addRateLimited calls. */
  retries: number;
}

/**
 * A keyed work queue with client-go's guarantees: a key waiting in the queue is there once however
 * often it is added; a key is never handled by two workers at once (added while being handled, it
 * is marked dirty and handled once more afterwards); `addAfter` delays (the earliest wins);
 * `addRateLimited` backs off per key until `forget`. Keys are handled in the order they became
 * ready.
 */
export class WorkQueue {
  readonly stats: WorkQueueStats = { adds: 0, processed: 0, failures: 0, retries: 0 };
  readonly rateLimiter: ExponentialRateLimiter;

  readonly #log: Logger;
  readonly #metrics: WorkQueueMetrics | undefined;
  /** When each waiting key was added (performance.now()), kept only with metrics. */
  readonly #addedAt = new Map<string, number>();
  readonly #queue: string[] = [];
  /** Keys added with addUrgent: handed out before any in #queue (new work before follow-ups). */
  readonly #urgent: string[] = [];
  /** Keys that need handling: in #queue, or being handled and to be queued again after. */
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  readonly #waiters: Array<(key: string | undefined) => void> = [];
  #shuttingDown = false;
  #drain = true;
  #workers: Promise<void>[] = [];

  constructor(options: WorkQueueOptions = {}) {
    this.rateLimiter = options.rateLimiter ?? new ExponentialRateLimiter();
    this.#log = options.logger ?? pino({ level: 'silent' });
    this.#metrics = options.metrics;
  }

  /** Keys waiting to be handled (not those being handled). */
  get length(): number {
    return this.#queue.length + this.#urgent.length;
  }

  /** Whether `key` is waiting, delayed, or being handled. */
  has(key: string): boolean {
    return this.#dirty.has(key) || this.#processing.has(key) || this.#delayed.has(key);
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  add(key: string): void {
    this.#enqueue(key, false);
  }

  /**
   * Adds `key` ahead of every key added with add(): new work (a Render without a Job) before
   * follow-ups of work already started. Otherwise as add(): a key waiting already stays where it is.
   */
  addUrgent(key: string): void {
    this.#enqueue(key, true);
  }

  #enqueue(key: string, urgent: boolean): void {
    if (this.#shuttingDown) return;
    this.stats.adds++;
    if (this.#dirty.has(key)) return;
    this.#dirty.add(key);
    this.#noteAdded(key);
    if (this.#processing.has(key)) return;
    this.#push(key, urgent);
  }

  /** Adds `key` after `ms`; of several pending delays for one key, the earliest stands. */
  addAfter(key: string, ms: number): void {
    if (this.#shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = Date.now() + ms;
    const pending = this.#delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.#delayed.delete(key);
      this.add(key);
    }, ms);
    this.#delayed.set(key, { at, timer });
  }

  /** Adds `key` after its per-key backoff (5 ms doubling to 5 min by default). */
  addRateLimited(key: string): void {
    this.stats.retries++;
    this.#metrics?.retried();
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** Clears the backoff of `key` (call when it was handled successfully). */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  /** Waits for the next key; undefined once the queue is shut down (and drained). */
  get(): Promise<string | undefined> {
    const key = this.#urgent.shift() ?? this.#queue.shift();
    if (key !== undefined) return Promise.resolve(this.#take(key));
    if (this.#shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Marks `key` handled; if it was added meanwhile, it goes back in the queue. */
  done(key: string): void {
    this.#processing.delete(key);
    if (this.#dirty.has(key) && (!this.#shuttingDown || this.#drain)) this.#push(key);
    else if (this.#shuttingDown) {
      this.#dirty.delete(key);
      this.#addedAt.delete(key);
    }
    this.#wakeIdle();
  }

  /**
   * Starts `workers` loops that take keys and run `handler`. A handler that returns (or resolves)
   * has its key forgotten by the rate limiter, or re-added after `requeueAfterMs` when it asks; one
   * that throws has its key re-added rate-limited. Resolves when the queue is shut down and every
   * worker has finished.
   */
  run(handler: KeyHandler, workers = 1): Promise<void> {
    for (let i = 0; i < workers; i++) this.#workers.push(this.#worker(handler));
    return Promise.all(this.#workers).then(() => {});
  }

  /**
   * Stops accepting keys and cancels delayed ones. With `drain` (the default) the workers handle
   * what is queued (and keys re-added while they were being handled) first; without, only the
   * keys being handled finish. Resolves once every worker has stopped.
   */
  async shutdown(options: { drain?: boolean } = {}): Promise<void> {
    this.#shuttingDown = true;
    this.#drain = options.drain ?? true;
    for (const { timer } of this.#delayed.values()) clearTimeout(timer);
    this.#delayed.clear();
    if (!this.#drain) {
      for (const key of [...this.#urgent, ...this.#queue]) {
        this.#dirty.delete(key);
        this.#addedAt.delete(key);
      }
      this.#queue.length = 0;
      this.#urgent.length = 0;
    }
    this.#wakeIdle();
    await Promise.all(this.#workers);
  }

  async #worker(handler: KeyHandler): Promise<void> {
    for (;;) {
      const key = await this.get();
      if (key === undefined) return;
      this.stats.processed++;
      const started = this.#metrics ? performance.now() : 0;
      try {
        const result = await handler(key);
        this.forget(key);
        if (result?.requeueAfterMs !== undefined) this.addAfter(key, result.requeueAfterMs);
      } catch (err) {
        this.stats.failures++;
        this.#log.warn({ err, key, retries: this.rateLimiter.retries(key) }, 'work queue handler failed; retrying');
        this.addRateLimited(key);
      } finally {
        if (this.#metrics) this.#metrics.worked((performance.now() - started) / 1000);
        this.done(key);
      }
    }
  }

  #take(key: string): string {
    this.#dirty.delete(key);
    this.#processing.add(key);
    if (this.#metrics) {
      const at = this.#addedAt.get(key);
      this.#addedAt.delete(key);
      if (at !== undefined) this.#metrics.queued((performance.now() - at) / 1000);
    }
    return key;
  }

  #noteAdded(key: string): void {
    if (!this.#metrics) return;
    this.#metrics.added();
    if (!this.#addedAt.has(key)) this.#addedAt.set(key, performance.now());
  }

  #push(key: string, urgent = false): void {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(this.#take(key));
    else (urgent ? this.#urgent : this.#queue).push(key);
  }

  /** Once shut down with nothing left to hand out, idle workers are released. */
  #wakeIdle(): void {
    if (!this.#shuttingDown || this.length > 0) return;
    for (const waiter of this.#waiters.splice(0)) waiter(undefined);
  }
}
