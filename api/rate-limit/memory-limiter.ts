import type { GatedDecision, LimitDecision, RateLimiter, Window } from './limiter.ts';

/**
 * The requests counted under one key in the last window, oldest first: `times[head..]`. Entries
 * that leave the window move `head` on instead of shifting the array (the bench's logs hold
 * hundreds of entries, and every request used to move them all); the dead prefix is cut off once
 * it is half the array, so that costs O(1) per entry over time.
 */
interface Log {
  times: number[];
  head: number;
}

/**
 * In-process sliding-window log: per key, the timestamps of the requests counted in the last
 * window, oldest first. Exact, and cheap at these limits (at most 1200 entries per key).
 *
 * `hitUnlessGatedNow` is the same decision as `hitUnlessGated` without a promise: the auth hook
 * uses it, so a cached key's request goes through its hooks without waiting a microtask turn.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  private sweeps = 0;

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    return this.hitNow(key, limit, windowMs, nowMs);
  }

  async peek(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    return this.peekNow(key, limit, windowMs, nowMs);
  }

  async hitUnlessGated(gate: Window, counted: Window, nowMs: number): Promise<GatedDecision> {
    return this.hitUnlessGatedNow(gate, counted, nowMs);
  }

  hitUnlessGatedNow(gate: Window, counted: Window, nowMs: number): GatedDecision {
    const gateDecision = this.peekNow(gate.key, gate.limit, gate.windowMs, nowMs);
    if (!gateDecision.allowed) return { gate: gateDecision, hit: null };
    return { gate: gateDecision, hit: this.hitNow(counted.key, counted.limit, counted.windowMs, nowMs) };
  }

  async close(): Promise<void> {
    this.logs.clear();
  }

  private hitNow(key: string, limit: number, windowMs: number, nowMs: number): LimitDecision {
    const log = this.prune(key, windowMs, nowMs);
    const allowed = log.times.length - log.head < limit;
    if (allowed) log.times.push(nowMs);
    this.maybeSweep(windowMs, nowMs);
    return decide(log, limit, windowMs, nowMs, allowed);
  }

  private peekNow(key: string, limit: number, windowMs: number, nowMs: number): LimitDecision {
    const log = this.logs.get(key);
    // A key never counted (the failure gate of an address, nearly always) is an empty log: no
    // entry is made for looking at it.
    if (!log) return { allowed: limit > 0, limit, remaining: Math.max(0, limit), resetAtMs: nowMs + windowMs };
    this.drop(log, windowMs, nowMs);
    return decide(log, limit, windowMs, nowMs, log.times.length - log.head < limit);
  }

  private prune(key: string, windowMs: number, nowMs: number): Log {
    let log = this.logs.get(key);
    if (!log) {
      log = { times: [], head: 0 };
      this.logs.set(key, log);
    }
    this.drop(log, windowMs, nowMs);
    return log;
  }

  private drop(log: Log, windowMs: number, nowMs: number): void {
    const { times } = log;
    let head = log.head;
    while (head < times.length && (times[head] as number) <= nowMs - windowMs) head++;
    if (head === times.length) {
      times.length = 0;
      head = 0;
    } else if (head > 32 && head * 2 >= times.length) {
      times.splice(0, head);
      head = 0;
    }
    log.head = head;
  }

  // Idle keys would otherwise stay in memory forever; sweep now and then.
  private maybeSweep(windowMs: number, nowMs: number): void {
    if (++this.sweeps % 10_000 !== 0) return;
    for (const [key, log] of this.logs) {
      const { times } = log;
      if (times.length === log.head || (times[times.length - 1] as number) <= nowMs - windowMs) this.logs.delete(key);
    }
  }
}

function decide(log: Log, limit: number, windowMs: number, nowMs: number, allowed: boolean): LimitDecision {
  const oldest = log.times[log.head];
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - (log.times.length - log.head)),
    resetAtMs: oldest === undefined ? nowMs + windowMs : oldest + windowMs,
  };
}
