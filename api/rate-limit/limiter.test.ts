import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type TestContext, test } from 'node:test';
import { Redis } from 'ioredis';
import type { RateLimiter } from './limiter.ts';
import { MemoryRateLimiter } from './memory-limiter.ts';
import { MAX_BATCH, RedisRateLimiter } from './redis-limiter.ts';

type Step = { at: number; op?: 'hit' | 'peek'; allowed: boolean; remaining: number; resetAt: number };

// limit 3 per 1000 ms. Each step: time, expected decision.
const CASES: { name: string; steps: Step[] }[] = [
  {
    name: 'counts up to the limit, then refuses without counting',
    steps: [
      { at: 0, allowed: true, remaining: 2, resetAt: 1000 },
      { at: 10, allowed: true, remaining: 1, resetAt: 1000 },
      { at: 20, allowed: true, remaining: 0, resetAt: 1000 },
      { at: 30, allowed: false, remaining: 0, resetAt: 1000 },
      { at: 999, allowed: false, remaining: 0, resetAt: 1000 },
    ],
  },
  {
    name: 'the window slides: each old request frees one slot when it leaves',
    steps: [
      { at: 0, allowed: true, remaining: 2, resetAt: 1000 },
      { at: 500, allowed: true, remaining: 1, resetAt: 1000 },
      { at: 600, allowed: true, remaining: 0, resetAt: 1000 },
      { at: 1000, allowed: true, remaining: 0, resetAt: 1500 },
      { at: 1001, allowed: false, remaining: 0, resetAt: 1500 },
      { at: 1500, allowed: true, remaining: 0, resetAt: 1600 },
    ],
  },
  {
    // Another API replica's clock behind this one's: its request's time is appended after a later
    // one, and the log leaves in arrival order, so it is counted until the entries before it have
    // left (at 1350 a log ordered by time would have let 300 go and allowed): conservative by the
    // skew, never more than the limit.
    name: 'an earlier time after a later one is counted until the ones before it leave',
    steps: [
      { at: 0, allowed: true, remaining: 2, resetAt: 1000 },
      { at: 600, allowed: true, remaining: 1, resetAt: 1000 },
      { at: 300, allowed: true, remaining: 0, resetAt: 1000 },
      { at: 1000, allowed: true, remaining: 0, resetAt: 1600 },
      { at: 1350, allowed: false, remaining: 0, resetAt: 1600 },
      { at: 1600, allowed: true, remaining: 1, resetAt: 2000 },
    ],
  },
  {
    name: 'peek looks without counting',
    steps: [
      { at: 0, op: 'peek', allowed: true, remaining: 3, resetAt: 1000 },
      { at: 1, allowed: true, remaining: 2, resetAt: 1001 },
      { at: 2, op: 'peek', allowed: true, remaining: 2, resetAt: 1001 },
      { at: 3, allowed: true, remaining: 1, resetAt: 1001 },
      { at: 4, allowed: true, remaining: 0, resetAt: 1001 },
      { at: 5, op: 'peek', allowed: false, remaining: 0, resetAt: 1001 },
    ],
  },
];

/** Each limiter gets its own key prefix on the shared Redis. */
const freshPrefix = () => `t:${randomBytes(4).toString('hex')}:`;

const counted5 = { key: 'counted5', limit: 5, windowMs: 1000 };

function limiters(): { name: string; make: () => RateLimiter }[] {
  const list: { name: string; make: () => RateLimiter }[] = [{ name: 'memory', make: () => new MemoryRateLimiter() }];
  const url = process.env.TEST_REDIS_URL;
  if (url)
    list.push({
      name: 'redis',
      make: () => new RedisRateLimiter(url, { prefix: freshPrefix() }),
    });
  return list;
}

for (const l of limiters()) {
  test(`sliding window (${l.name})`, async (t) => {
    const limiter = l.make();
    t.after(() => limiter.close());
    for (const c of CASES) {
      await t.test(c.name, async () => {
        const key = `k-${c.name}`;
        for (const s of c.steps) {
          const d = await (s.op === 'peek' ? limiter.peek(key, 3, 1000, s.at) : limiter.hit(key, 3, 1000, s.at));
          assert.deepEqual(
            { allowed: d.allowed, remaining: d.remaining, resetAt: d.resetAtMs },
            { allowed: s.allowed, remaining: s.remaining, resetAt: s.resetAt },
            `at ${s.at}`,
          );
        }
      });
    }
    await t.test('keys are independent', async () => {
      for (let i = 0; i < 3; i++) await limiter.hit('a', 3, 1000, 0);
      assert.equal((await limiter.hit('a', 3, 1000, 1)).allowed, false);
      assert.equal((await limiter.hit('b', 3, 1000, 1)).allowed, true);
    });
    await t.test('hitUnlessGated: the gate refuses without counting, else the request is counted', async () => {
      const gate = { key: 'g', limit: 2, windowMs: 1000 };
      const counted = { key: 'c', limit: 5, windowMs: 1000 };
      const open = await limiter.hitUnlessGated(gate, counted, 0);
      assert.deepEqual(
        [open.gate.allowed, open.gate.remaining, open.hit?.allowed, open.hit?.remaining],
        [true, 2, true, 4],
      );
      await limiter.hit('g', 2, 1000, 10);
      await limiter.hit('g', 2, 1000, 20);
      const shut = await limiter.hitUnlessGated(gate, counted, 30);
      assert.deepEqual([shut.gate.allowed, shut.gate.resetAtMs, shut.hit], [false, 1010, null]);
      assert.equal((await limiter.peek('c', 5, 1000, 30)).remaining, 4, 'a gated request is not counted');
      assert.equal((await limiter.peek('g', 2, 1000, 30)).remaining, 0, 'the gate is only looked at');
      // At 1011 the gate's hit at 10 and the counted request at 0 have left their windows.
      const reopened = await limiter.hitUnlessGated(gate, counted, 1011);
      assert.deepEqual([reopened.gate.allowed, reopened.gate.remaining, reopened.hit?.remaining], [true, 1, 4]);
    });
    await t.test('parallel hits never exceed the limit', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('par', 10, 60_000, 5)));
      assert.equal(results.filter((r) => r.allowed).length, 10);
    });
    await t.test('checks asked for together are decided in order, as if one by one', async () => {
      // More than one batch's worth on one key, mixed with peeks and gated hits on others.
      const n = MAX_BATCH * 2 + 7;
      const hits = Array.from({ length: n }, (_, i) => limiter.hit('seq', n, 60_000, 100 + i));
      const peek = limiter.peek('seq', n, 60_000, 100 + n);
      const gated = limiter.hitUnlessGated({ key: 'seq', limit: n, windowMs: 60_000 }, counted5, 100 + n);
      const decided = await Promise.all(hits);
      assert.deepEqual(
        decided.map((d) => d.remaining),
        Array.from({ length: n }, (_, i) => n - 1 - i),
      );
      assert.ok(decided.every((d) => d.allowed && d.resetAtMs === 60_100));
      assert.equal((await peek).remaining, 0, 'the peek sees every hit before it');
      const g = await gated;
      assert.deepEqual([g.gate.allowed, g.hit], [false, null], 'the gate saw every hit before it');
    });
    await t.test('an empty log looked at, then counted in, in one batch: the looks after see the count', async () => {
      // The Redis script remembers, within a batch, the logs a look found empty (a failure gate,
      // usually): a count in one of them must be seen by every later look.
      const gate = { key: 'empty-gate', limit: 1, windowMs: 1000 };
      const [first, , second, gated, open] = await Promise.all([
        limiter.peek('empty-gate', 1, 1000, 0),
        limiter.hit('empty-gate', 1, 1000, 1),
        limiter.peek('empty-gate', 1, 1000, 2),
        limiter.hitUnlessGated(gate, { key: 'behind-empty-gate', limit: 5, windowMs: 1000 }, 3),
        limiter.hitUnlessGated({ key: 'other-gate', limit: 1, windowMs: 1000 }, counted5, 4),
      ]);
      assert.deepEqual([first.allowed, first.remaining], [true, 1]);
      assert.deepEqual([second.allowed, second.remaining, second.resetAtMs], [false, 0, 1001]);
      assert.deepEqual([gated.gate.allowed, gated.hit], [false, null]);
      assert.deepEqual([open.gate.allowed, open.hit?.allowed], [true, true]);
    });
  });
}

const redisUrl = process.env.TEST_REDIS_URL;
const needsRedis = { skip: redisUrl ? false : 'TEST_REDIS_URL is not set' };

/** A Redis limiter on a fresh prefix and a plain connection to the same server, closed after `t`. */
function redisLimiter(t: TestContext): { prefix: string; limiter: RedisRateLimiter; raw: Redis } {
  const prefix = freshPrefix();
  const limiter = new RedisRateLimiter(redisUrl as string, { prefix });
  const raw = new Redis(redisUrl as string);
  t.after(async () => {
    await limiter.close();
    await raw.quit();
  });
  return { prefix, limiter, raw };
}

test('redis limiter: a failing check fails alone, its batch neighbours are decided', needsRedis, async (t) => {
  const { prefix, limiter, raw } = redisLimiter(t);
  await raw.set(`${prefix}not-a-set`, 'x');
  const [before, broken, after] = await Promise.allSettled([
    limiter.hit('ok', 3, 1000, 0),
    limiter.hit('not-a-set', 3, 1000, 0),
    limiter.hit('ok', 3, 1000, 1),
  ]);
  assert.deepEqual(before, { status: 'fulfilled', value: { allowed: true, limit: 3, remaining: 2, resetAtMs: 1000 } });
  assert.equal(broken.status, 'rejected');
  assert.match(String((broken as PromiseRejectedResult).reason), /WRONGTYPE/);
  assert.deepEqual(after, { status: 'fulfilled', value: { allowed: true, limit: 3, remaining: 1, resetAtMs: 1000 } });
});

test('redis limiter: the checks of one turn reach Redis as one script call', needsRedis, async (t) => {
  const { prefix, limiter, raw } = redisLimiter(t);
  const monitor = await raw.monitor(); // a second connection, in MONITOR mode
  t.after(() => monitor.disconnect());
  await limiter.hit('warm', 10, 1000, 0); // the script is loaded (EVALSHA, NOSCRIPT, EVAL) before watching
  const calls: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[]) => {
    // The warm-up's EVAL may still be on its way to this connection: only the checks below count.
    if (/^eval/i.test(args[0] ?? '') && args.some((a) => a === `${prefix}k0` || a === `${prefix}after`))
      calls.push(args);
  });
  await new Promise((r) => setTimeout(r, 50));
  await Promise.all(Array.from({ length: 50 }, (_, i) => limiter.hit(`k${i % 7}`, 100, 1000, 10)));
  await limiter.hit('after', 10, 1000, 10);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(calls.length, 2, 'one call for the 50 checks asked for together, one for the check after');
  assert.equal(calls[0]?.[2], '100', 'the first call carries 50 checks of two keys each');
});
