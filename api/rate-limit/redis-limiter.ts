import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { LimitDecision, RateLimiter } from './limiter.ts';

// One atomic script: drop entries older than the window, count, add this request when under the
// limit (ARGV[4] = 1 to count it, 0 to only look), and return the count and the oldest entry.
const SLIDING_WINDOW_LUA = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local count_it = ARGV[4] == '1'
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local n = redis.call('ZCARD', key)
local allowed = 0
if n < limit then
  allowed = 1
  if count_it then
    redis.call('ZADD', key, now, ARGV[5])
    n = n + 1
  end
end
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local oldest_ms = now
if oldest[2] then oldest_ms = tonumber(oldest[2]) end
return {allowed, n, oldest_ms}
`;

type SlidingWindowRedis = Redis & {
  slidingWindow(
    key: string,
    now: number,
    window: number,
    limit: number,
    count: string,
    member: string,
  ): Promise<[number, number, number]>;
};

/** Redis sliding-window log (a sorted set per key), shared by every API replica. */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: SlidingWindowRedis;
  private readonly prefix: string;

  constructor(url: string, options: { prefix?: string } = {}) {
    this.prefix = options.prefix ?? 'fw:rl:';
    const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    redis.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    this.redis = redis as SlidingWindowRedis;
  }

  hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    return this.run(key, limit, windowMs, nowMs, true);
  }

  peek(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    return this.run(key, limit, windowMs, nowMs, false);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private async run(key: string, limit: number, windowMs: number, nowMs: number, count: boolean) {
    // The member must be unique so two requests in the same millisecond both count.
    const member = `${nowMs}-${randomBytes(6).toString('hex')}`;
    const [allowed, n, oldest] = await this.redis.slidingWindow(
      this.prefix + key,
      nowMs,
      windowMs,
      limit,
      count ? '1' : '0',
      member,
    );
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - n),
      resetAtMs: Number(oldest) + windowMs,
    } satisfies LimitDecision;
  }
}
