import { Redis } from 'ioredis';
import { AppError } from '../../lib/errors.ts';
import { DATABASE_DEADLINE_MS } from '../../store/db-deadline.ts';
import type { GatedDecision, LimitDecision, RateLimiter, Window } from './limiter.ts';

/**
 * The most a request waits for Redis: the database's deadline (store/db-deadline.ts), so a
 * request answers within it whichever backing service is gone. While Redis is known to be
 * unreachable (not connected) a request does not wait at all; a connection that stops answering
 * (a black-holed network) is given up after this long, and reconnected.
 */
export const REDIS_DEADLINE_MS = DATABASE_DEADLINE_MS;

/** Between reconnection attempts: 50 ms, doubling, at most 500 ms (ioredis's own goes to 5 s). */
function reconnectDelay(times: number): number {
  return Math.min(50 * 2 ** (times - 1), 500);
}

/** Seconds a client waits before retrying while Redis cannot be reached. */
const UNREACHABLE_RETRY_AFTER_SEC = 5;

/** Most checks one script call carries; a larger tick's worth goes out as several calls. */
export const MAX_BATCH = 128;

/**
 * A log's key expires two windows and this margin after its mark was set (see the script). With
 * one clock, two windows are enough: the mark is inside the window while it is in the log, so the
 * key outlives any entry appended meanwhile by more than a window. When API replicas' clocks
 * disagree (by a skew), an entry leaves every replica's window up to twice the skew later than its
 * own time says, and the mark may have been set up to twice the skew earlier than it looks: a
 * margin of four skews covers both, so 15 s covers clocks up to 3.75 s apart (NTP keeps them within
 * milliseconds). Without marks the expiry was set on every hit, to one window.
 */
const SKEW_MARGIN_MS = 15_000;

// The sliding-window log on one list per key: the times of the requests counted in the last window,
// in the order they were counted (the oldest at the head). Look at the head, pop the entries that
// left the window, append this request (when counting and under the limit), and report allowed,
// count and the oldest entry's time, as three values (no table per window). A list of integers is
// stored packed (a few bytes an entry, where a sorted set keeps a skiplist node, a dictionary
// entry and a unique member string for each) and every step is at an end of it, so a check costs
// a few O(1) commands whatever the limit. An absent list, which the failure gate of nearly every
// address is, costs one command: there is nothing to drop, expire or read.
//
// An entry is its time times two, plus one for the log's MARK: the entry that was the newest when
// the key's expiry was last set, to two windows (and a margin) from then. While the mark is in the
// log it is inside the window, so the key lives for more than one window past now, and a new
// entry needs no PEXPIRE: a hit in steady state is LINDEX of the head, LPOP of the entry that
// left, LINDEX of the next and RPUSH (four commands, where setting the expiry on every hit made
// five). When the mark leaves (popped from the head, or taken back by a refused hit) the expiry
// is set again and the newest entry marked; a log has one mark, and it moves about once a window.
//
// Order is arrival order: an API replica whose clock runs behind the last entry's appends an
// earlier time after a later one, and the head stops at the first entry still inside the window,
// so such a request is counted until the ones before it leave (conservative by the clocks' skew,
// never more than the limit).
//
// One call runs a batch of checks, in order, each as if alone (a key checked twice in a batch sees
// the first check's entry). A check with a gate (a gate window above 0) uses the next two KEYS (its
// gate, then the counted window), one without a gate the next one; the i-th of ARGV[1]'s checks is
// six numbers: now, gate window (0: no gate), gate limit, window, limit, count (1: count this
// request when allowed, 0: only look), and ARGV[2] is the margin of the expiry (SKEW_MARGIN_MS). It
// answers six integers per check: the gate's {allowed, count, oldest} ({-1, -1, -1} without a gate)
// and the counted window's ({-1, -1, -1} when the gate refused). A check that fails (a key of the
// wrong type) answers its error message instead and fails alone: the other checks of the batch are
// unaffected.
const BATCH_LUA = `
-- Keys a look found empty in this batch, and nothing wrote since: most checks' failure gate is
-- the same address's empty log (every request of one client, or behind one proxy), looked at
-- once a batch instead of once a check. Exact: an empty log stays empty until a check counts in it.
local empty = {}
local margin = tonumber(ARGV[2])

-- The key's expiry, set when its newest entry is the mark: two windows and the margin.
local function expire(key, window)
  redis.call('PEXPIRE', key, 2 * window + margin)
end

-- The log's newest entry made the mark, and the expiry set again (the log is not empty).
local function remark(key, window)
  local tail = tonumber(redis.call('LINDEX', key, -1))
  if tail % 2 == 0 then redis.call('LSET', key, -1, tail + 1) end
  expire(key, window)
end

local function slide(key, now, window, limit, count)
  if not count and empty[key] then return limit > 0 and 1 or 0, 0, now end
  local cutoff = now - window
  local marked = false
  local head = redis.call('LINDEX', key, 0)
  local oldest
  while head do
    local v = tonumber(head)
    local at = (v - v % 2) / 2
    if at > cutoff then
      oldest = at
      break
    end
    if v % 2 == 1 then marked = true end
    redis.call('LPOP', key)
    head = redis.call('LINDEX', key, 0)
  end
  if not count then
    if not oldest then
      empty[key] = true
      return limit > 0 and 1 or 0, 0, now
    end
    local n = redis.call('LLEN', key)
    if marked then remark(key, window) end
    return n < limit and 1 or 0, n, oldest
  end
  -- Counted: append first, since RPUSH answers the length (one call instead of LLEN), and take
  -- the entry back when it was one too many. The entry is the mark when the log had none left.
  empty[key] = nil
  local mark = (marked or not oldest) and 1 or 0
  local n = redis.call('RPUSH', key, now * 2 + mark)
  local allowed = 1
  if n > limit then
    redis.call('RPOP', key)
    n = n - 1
    allowed = 0
    if n == 0 then return allowed, 0, now end
    if mark == 1 then remark(key, window) end
  elseif mark == 1 then
    expire(key, window)
  end
  return allowed, n, oldest or now
end

-- The batch's arguments come as ONE JSON array of numbers, six a check (one argument to send and
-- hold instead of six per check, decoded in C by cjson instead of matched in Lua).
local args = cjson.decode(ARGV[1])

local function check(i, gate_key, key)
  local at = 6 * (i - 1)
  local now, gate_window, gate_limit, window, limit, count =
    args[at + 1], args[at + 2], args[at + 3], args[at + 4], args[at + 5], args[at + 6]
  local g1, g2, g3 = -1, -1, -1
  if gate_key then
    g1, g2, g3 = slide(gate_key, now, gate_window, gate_limit, false)
    if g1 == 0 then return g1, g2, g3, -1, -1, -1 end
  end
  local h1, h2, h3 = slide(key, now, window, limit, count == 1)
  return g1, g2, g3, h1, h2, h3
end

-- One string for the whole batch: one reply item to write and to decode instead of six per
-- check. Checks are separated by ';', values by ','; the integers as RESP would give them (%d
-- truncates, as Redis does when it turns a Lua number into an integer reply). A check whose gate
-- is open on an empty log, or that has no gate (nearly every check), is 'G', then the counted
-- window's three values, its allowed (0 or 1) written as text: two numbers to format instead of
-- six, the gate's values being known to the caller. A failed check is 'E' and its message, with
-- any ',' or ';' in it made a space.
local out = {}
local next_key = 1
for i = 1, #args / 6 do
  local gate_key
  if args[6 * (i - 1) + 2] > 0 then
    gate_key = KEYS[next_key]
    next_key = next_key + 1
  end
  local key = KEYS[next_key]
  next_key = next_key + 1
  local ok, v1, v2, v3, v4, v5, v6 = pcall(check, i, gate_key, key)
  if not ok then
    local message = type(v1) == 'table' and v1.err or tostring(v1)
    out[i] = 'E' .. string.gsub(message, '[,;]', ' ')
  elseif v4 ~= -1 and (v1 == -1 or (v2 == 0 and v3 == args[6 * (i - 1) + 1])) then
    out[i] = string.format(v4 == 1 and 'G1,%d,%d' or 'G0,%d,%d', v5, v6)
  else
    out[i] = string.format('%d,%d,%d,%d,%d,%d', v1, v2, v3, v4, v5, v6)
  end
end
return table.concat(out, ';')
`;

type Sextuple = [number, number, number, number, number, number];
type BatchRedis = Redis & {
  /** numKeys, then the keys, then the arguments (ioredis's form for a variable key count). */
  slidingWindows(numKeys: number, ...keysThenArgs: (string | number)[]): Promise<string>;
};

interface Check {
  gate: Window | null;
  counted: Window;
  nowMs: number;
  /** Whether the check counts its request (when allowed) or only looks. */
  count: boolean;
  /** What the caller asked for, made of the check's six values. */
  answer(values: Sextuple): unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Whether a check has a gate for the script to look at: the script's own test (gate window > 0). */
function gated(c: Check): boolean {
  return (c.gate?.windowMs ?? 0) > 0;
}

function decision(limit: number, windowMs: number, allowed: number, n: number, oldest: number): LimitDecision {
  return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - n), resetAtMs: Number(oldest) + windowMs };
}

/**
 * Redis sliding-window log (a list per key), shared by every API replica.
 *
 * Every check an event-loop turn asks for goes to Redis as ONE script call (up to MAX_BATCH
 * checks each): under load that is one command to parse, dispatch and answer instead of one per
 * request, on both sides of the socket. Each check still runs atomically and in arrival order,
 * exactly as if sent alone. A batch touches many keys in one script: behind a Redis Cluster proxy
 * give the prefix a hash tag (`{fw}:rl3:`) so they share a slot.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: BatchRedis;
  private readonly prefix: string;
  private pending: Check[] = [];
  private flushScheduled = false;
  /** Settles once the first connection is ready, or after REDIS_DEADLINE_MS. */
  private readonly firstConnection: Promise<void>;

  /** The margin of a log's expiry past its two windows (SKEW_MARGIN_MS; tests set 0). */
  private readonly skewMarginMs: number;

  constructor(url: string, options: { prefix?: string; skewMarginMs?: number } = {}) {
    this.skewMarginMs = options.skewMarginMs ?? SKEW_MARGIN_MS;
    // 'fw:rl3:': an entry is now its time times two plus the mark (it was the time under
    // 'fw:rl2:', and a sorted set under 'fw:rl:'), so a replica of the previous release beside this
    // one during a rolling upgrade never reads an entry of the other form; each counts on its own
    // until the upgrade ends, and the old keys expire within a window.
    this.prefix = options.prefix ?? 'fw:rl3:';
    // No auto-pipelining: this class already sends one command per turn, and ioredis would defer
    // it by one more turn to gather others.
    //
    // Bounded waits (issue 27): with no connection, a command fails at once (no offline queue,
    // where requests used to wait up to the 10 s connect timeout) and so does one in flight when
    // the connection drops (no retries: its request has an answer to give now); a connection
    // that gets no reply within REDIS_DEADLINE_MS is dropped and reconnected, and commands
    // waiting on it fail. Either failure is a 503 with Retry-After (see send()).
    const redis = new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: REDIS_DEADLINE_MS,
      commandTimeout: REDIS_DEADLINE_MS,
      socketTimeout: REDIS_DEADLINE_MS,
      retryStrategy: reconnectDelay,
    });
    // ioredis reports every failed connection attempt here; each request that meets it is
    // answered (and logged) as a 503 already.
    redis.on('error', () => {});
    redis.defineCommand('slidingWindows', { lua: BATCH_LUA });
    this.redis = redis as BatchRedis;
    this.firstConnection = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REDIS_DEADLINE_MS).unref();
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    return this.check(null, { key, limit, windowMs }, nowMs, true, (v) => decision(limit, windowMs, v[3], v[4], v[5]));
  }

  peek(key: string, limit: number, windowMs: number, nowMs: number): Promise<LimitDecision> {
    return this.check(null, { key, limit, windowMs }, nowMs, false, (v) => decision(limit, windowMs, v[3], v[4], v[5]));
  }

  hitUnlessGated(gate: Window, counted: Window, nowMs: number): Promise<GatedDecision> {
    return this.check(gate, counted, nowMs, true, (v) => ({
      gate: decision(gate.limit, gate.windowMs, v[0], v[1], v[2]),
      hit: v[3] === -1 ? null : decision(counted.limit, counted.windowMs, v[3], v[4], v[5]),
    }));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Queues a check for this turn's batch; its promise settles with `answer` of its values. */
  private check<T>(
    gate: Window | null,
    counted: Window,
    nowMs: number,
    count: boolean,
    answer: (values: Sextuple) => T,
  ): Promise<T> {
    // One promise per check, settled with the caller's answer itself (no second promise of an
    // async method awaiting the first), and no closure made per check.
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ gate, counted, nowMs, count, answer, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length >= MAX_BATCH) {
        const batch = this.pending;
        this.pending = [];
        this.send(batch);
        return;
      }
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // setImmediate, not a microtask: every request parsed in this turn's I/O joins the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const all = this.pending;
    this.pending = [];
    if (all.length > 0) this.send(all);
  }

  private send(batch: Check[]): void {
    const keys: string[] = [];
    let args = '';
    for (const c of batch) {
      if (gated(c)) keys.push(this.prefix + (c.gate as Window).key);
      keys.push(this.prefix + c.counted.key);
      args += `${args ? ',' : '['}${c.nowMs},${c.gate?.windowMs ?? 0},${c.gate?.limit ?? 0},${c.counted.windowMs},${c.counted.limit},${c.count ? 1 : 0}`;
    }
    args += ']';
    // Only until the first connection is up (a process just started) do checks wait for it.
    const ready = this.redis.status === 'ready' ? undefined : this.firstConnection;
    const call = () => this.redis.slidingWindows(keys.length, ...keys, args, this.skewMarginMs);
    (ready ? ready.then(call) : call()).then(
      (reply) => {
        const checks = reply.split(';');
        for (let i = 0; i < batch.length; i++) {
          const c = batch[i] as Check;
          const text = checks[i] ?? 'Eno answer for this check';
          if (text.charCodeAt(0) === 69 /* E */) {
            c.reject(new Error(`rate limiter: ${text.slice(1)}`));
            continue;
          }
          const v = text.split(',');
          if (text.charCodeAt(0) === 71 /* G */) {
            // The gate open on an empty log (or no gate), then the counted window's values.
            const allowed = text.charCodeAt(1) === 49 /* 1 */ ? 1 : 0;
            c.resolve(
              c.answer(
                gated(c)
                  ? [1, 0, c.nowMs, allowed, Number(v[1]), Number(v[2])]
                  : [-1, -1, -1, allowed, Number(v[1]), Number(v[2])],
              ),
            );
            continue;
          }
          c.resolve(c.answer([Number(v[0]), Number(v[1]), Number(v[2]), Number(v[3]), Number(v[4]), Number(v[5])]));
        }
      },
      (error: Error) => {
        // Redis answered an error: our script or our keys are wrong, a 500. Anything else means
        // it could not be reached (down, restarting, network gone): a 503 with Retry-After, as a
        // database outage is, instead of failing requests as if they were broken.
        const unreachable = error.name !== 'ReplyError';
        const reason = unreachable
          ? new AppError('SERVICE_UNAVAILABLE', 'The service cannot reach its rate-limit store. Retry shortly.', {
              headers: { 'retry-after': String(UNREACHABLE_RETRY_AFTER_SEC) },
              cause: error,
            })
          : error;
        for (const c of batch) c.reject(reason);
      },
    );
  }
}
