import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { GatedDecision, LimitDecision, RateLimiter, Window } from './limiter.ts';

// The sliding-window log on one sorted set: drop entries older than the window, count, add this
// request (when counting and under the limit), and report {allowed, count, oldest entry}.
const SLIDE = `
local function slide(key, now, window, limit, count_it, member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local n = redis.call('ZCARD', key)
  local allowed = 0
  if n < limit then
    allowed = 1
    if count_it then
      redis.call('ZADD', key, now, member)
      n = n + 1
    end
  end
  if n > 0 then redis.call('PEXPIRE', key, window) end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local oldest_ms = now
  if oldest[2] then oldest_ms = tonumber(oldest[2]) end
  return {allowed, n, oldest_ms}
end
`;

// hit (ARGV[4] = 1) or peek (0) on KEYS[1].
const SLIDING_WINDOW_LUA = `${SLIDE}
return slide(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4] == '1', ARGV[5])
`;

// Peek at the gate KEYS[1]; only when it allows, hit KEYS[2]. Six numbers: the gate's, then the
// hit's ({-1, -1, -1} when the gate refused and nothing was counted).
const GATED_HIT_LUA = `${SLIDE}
local now = tonumber(ARGV[1])
local gate = slide(KEYS[1], now, tonumber(ARGV[2]), tonumber(ARGV[3]), false, '')
if gate[1] == 0 then return {gate[1], gate[2], gate[3], -1, -1, -1} end
local hit = slide(KEYS[2], now, tonumber(ARGV[4]), tonumber(ARGV[5]), true, ARGV[6])
return {gate[1], gate[2], gate[3], hit[1], hit[2], hit[3]}
`;

type Triple = [number, number, number];
type SlidingWindowRedis = Redis & {
  slidingWindow(
    key: string,
    now: number,
    window: number,
    limit: number,
    count: string,
    member: string,
  ): Promise<Triple>;
  gatedHit(
    gateKey: string,
    key: string,
    now: number,
    gateWindow: number,
    gateLimit: number,
    window: number,
    limit: number,
    member: string,
  ): Promise<[...Triple, ...Triple]>;
};

function decision(limit: number, windowMs: number, [allowed, n, oldest]: Triple): LimitDecision {
  return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - n), resetAtMs: Number(oldest) + windowMs };
}

/**
 * Redis sliding-window log (a sorted set per key), shared by every API replica. Commands issued in
 * the same tick go out as one pipeline (ioredis auto-pipelining), which under load turns many
 * small socket writes into a few. The gated hit touches two keys in one script: on Redis Cluster
 * give the prefix a hash tag (`{fw}:rl:`) so both land in one slot.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: SlidingWindowRedis;
  private readonly prefix: string;
  // Members of a sorted set must be unique so two requests in the same millisecond both count:
  // this process's random tag plus a counter makes them so without a random draw per request.
  private readonly tag = randomBytes(6).toString('hex');
  private seq = 0;

  constructor(url: string, options: { prefix?: string } = {}) {
    this.prefix = options.prefix ?? 'fw:rl:';
    const redis = new Redis(url, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      lazyConnect: false,
      enableAutoPipelining: true,
    });
    redis.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    redis.defineCommand('gatedHit', { numberOfKeys: 2, lua: GATED_HIT_LUA });
    this.redis = redis as SlidingWindowRedis;
  }

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    const r = await this.redis.slidingWindow(this.prefix + key, nowMs, windowMs, limit, '1', this.member(nowMs));
    return decision(limit, windowMs, r);
  }

  async peek(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    const r = await this.redis.slidingWindow(this.prefix + key, nowMs, windowMs, limit, '0', '');
    return decision(limit, windowMs, r);
  }

  async hitUnlessGated(gate: Window, counted: Window, nowMs: number): Promise<GatedDecision> {
    const [ga, gn, go, ha, hn, ho] = await this.redis.gatedHit(
      this.prefix + gate.key,
      this.prefix + counted.key,
      nowMs,
      gate.windowMs,
      gate.limit,
      counted.windowMs,
      counted.limit,
      this.member(nowMs),
    );
    return {
      gate: decision(gate.limit, gate.windowMs, [ga, gn, go]),
      hit: ha === -1 ? null : decision(counted.limit, counted.windowMs, [ha, hn, ho]),
    };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private member(nowMs: number): string {
    this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER;
    return `${nowMs}-${this.tag}-${this.seq.toString(36)}`;
  }
}
