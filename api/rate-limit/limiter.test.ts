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
function redisLimiter(
  t: TestContext,
  options: { skewMarginMs?: number } = {},
): { prefix: string; limiter: RedisRateLimiter; raw: Redis } {
  const prefix = freshPrefix();
  const limiter = new RedisRateLimiter(redisUrl as string, { prefix, ...options });
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
  assert.equal(calls[0]?.[2], '50', 'the first call carries 50 checks of one key each (a hit has no gate)');
});

/** The raw log of `key`: each entry's time and whether it is the log's mark (the script's encoding). */
async function rawLog(raw: Redis, prefix: string, key: string): Promise<{ at: number; mark: boolean }[]> {
  return (await raw.lrange(`${prefix}${key}`, 0, -1)).map((v) => ({
    at: Math.floor(Number(v) / 2),
    mark: Number(v) % 2 === 1,
  }));
}

test('redis limiter: a log has one mark, and its key outlives its newest entry by a window', needsRedis, async (t) => {
  // Real time (the key's expiry is Redis's): a 300 ms window, hits 0-60 ms apart for 1.5 s, so
  // the mark leaves the window several times and the expiry is set only then. No margin for
  // clock skew (one clock here), so the expiry is exactly what the mark makes it: two windows.
  const { prefix, limiter, raw } = redisLimiter(t, { skewMarginMs: 0 });
  const windowMs = 300;
  const end = Date.now() + 1500;
  let hits = 0;
  let marksMoved = 0;
  let lastMark = -1;
  while (Date.now() < end) {
    const now = Date.now();
    await limiter.hit('live', 1000, windowMs, now);
    hits++;
    const log = await rawLog(raw, prefix, 'live');
    const marks = log.filter((e) => e.mark);
    assert.equal(marks.length, 1, `one mark in the log after hit ${hits}`);
    assert.ok(
      log.every((e) => e.at > now - windowMs),
      'every entry is inside the window',
    );
    const ttl = await raw.pttl(`${prefix}live`);
    const newest = Math.max(...log.map((e) => e.at));
    // The key's expiry, in this process's clock (the same machine's as Redis's), is at least a
    // window after the newest entry: no entry still inside its window is lost to the expiry.
    assert.ok(Date.now() + ttl >= newest + windowMs, `expiry ${ttl} ms from now covers the newest entry's window`);
    assert.ok(ttl <= 2 * windowMs, `expiry ${ttl} ms is at most two windows`);
    if (marks[0]?.at !== lastMark) marksMoved++;
    lastMark = marks[0]?.at ?? -1;
    await new Promise((r) => setTimeout(r, Math.random() * 60));
  }
  assert.ok(
    marksMoved >= 3 && marksMoved < hits / 2,
    `the mark moved ${marksMoved} times in ${hits} hits: once a window or so`,
  );
});

test(
  'redis limiter: a look that drops the mark, or a refused hit that takes it back, marks the newest entry',
  needsRedis,
  async (t) => {
    const { prefix, limiter, raw } = redisLimiter(t);
    const marksOf = async (key: string) => (await rawLog(raw, prefix, key)).filter((e) => e.mark).map((e) => e.at);
    // A look: the marked entry (the first, at 0) leaves the window and is dropped by a peek.
    for (const at of [0, 100, 200]) await limiter.hit('look', 10, 1000, at);
    assert.deepEqual(await marksOf('look'), [0]);
    const looked = await limiter.peek('look', 10, 1000, 1050);
    assert.deepEqual([looked.remaining, looked.resetAtMs], [8, 1100]);
    assert.deepEqual(await marksOf('look'), [200], 'the newest entry is the mark');
    assert.ok((await raw.pttl(`${prefix}look`)) > 2000, 'and the expiry is set again');
    // A refused hit: the plan's limit lowered from 10 to 3 while the log holds 5; the hit that drops
    // the marked entry is refused, and its own entry (which was to be the mark) is taken back.
    for (const at of [0, 10, 20, 30, 40]) await limiter.hit('lowered', 10, 1000, at);
    await raw.pexpire(`${prefix}lowered`, 100_000); // a longer expiry than the script sets, to see it set below
    const refused = await limiter.hit('lowered', 3, 1000, 1005);
    assert.deepEqual([refused.allowed, refused.remaining], [false, 0]);
    assert.deepEqual(
      (await rawLog(raw, prefix, 'lowered')).map((e) => e.at),
      [10, 20, 30, 40],
    );
    assert.deepEqual(await marksOf('lowered'), [40], 'the newest entry is the mark');
    const ttl = await raw.pttl(`${prefix}lowered`);
    assert.ok(ttl > 2000 && ttl <= 2000 + 15_000, `the expiry is two windows and the margin again (${ttl} ms)`);
  },
);
