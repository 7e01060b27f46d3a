import type { GatedDecision, LimitDecision, RateLimiter, Window } from './limiter.ts';

/**
 * In-process sliding-window log: per key, the timestamps of the requests counted in the last
 * window, oldest first. Exact, and cheap at these limits (at most 1200 entries per key).
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>();
  private sweeps = 0;

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    return this.hitNow(key, limit, windowMs, nowMs);
  }

  async peek(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    return this.peekNow(key, limit, windowMs, nowMs);
  }

  async hitUnlessGated(gate: Window, counted: Window, nowMs: number): Promise<GatedDecision> {
    const gateDecision = this.peekNow(gate.key, gate.limit, gate.windowMs, nowMs);
    if (!gateDecision.allowed) return { gate: gateDecision, hit: null };
    return { gate: gateDecision, hit: this.hitNow(counted.key, counted.limit, counted.windowMs, nowMs) };
  }

  async close(): Promise<void> {
    this.logs.clear();
  }

  private hitNow(key: string, limit: number, windowMs: number, nowMs: number): LimitDecision {
    const log = this.prune(key, windowMs, nowMs);
    const allowed = log.length < limit;
    if (allowed) log.push(nowMs);
    this.maybeSweep(windowMs, nowMs);
    return decide(log, limit, windowMs, nowMs, allowed);
  }

  private peekNow(key: string, limit: number, windowMs: number, nowMs: number): LimitDecision {
    const log = this.prune(key, windowMs, nowMs);
    return decide(log, limit, windowMs, nowMs, log.length < limit);
  }

  private prune(key: string, windowMs: number, nowMs: number): number[] {
    let log = this.logs.get(key);
    if (!log) {
      log = [];
      this.logs.set(key, log);
    }
    let drop = 0;
    while (drop < log.length && (log[drop] as number) <= nowMs - windowMs) drop++;
    if (drop > 0) log.splice(0, drop);
    return log;
  }

  // Idle keys would otherwise stay in memory forever; sweep now and then.
  private maybeSweep(windowMs: number, nowMs: number): void {
    if (++this.sweeps % 10_000 !== 0) return;
    for (const [key, log] of this.logs) {
      if (log.length === 0 || (log[log.length - 1] as number) <= nowMs - windowMs) this.logs.delete(key);
    }
  }
}

function decide(log: number[], limit: number, windowMs: number, nowMs: number, allowed: boolean): LimitDecision {
  const oldest = log[0];
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - log.length),
    resetAtMs: oldest === undefined ? nowMs + windowMs : oldest + windowMs,
  };
}
