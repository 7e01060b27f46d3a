import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExponentialRateLimiter, WorkQueue } from './work-queue.ts';

/** Records every handling of every key, and how many run at once (overall and per key). */
function recorder(handleMs: number | ((key: string) => number) = 0) {
  const seen: string[] = [];
  const active = new Map<string, number>();
  let running = 0;
  let maxRunning = 0;
  let maxPerKey = 0;
  const handler = async (key: string) => {
    running++;
    maxRunning = Math.max(maxRunning, running);
    active.set(key, (active.get(key) ?? 0) + 1);
    maxPerKey = Math.max(maxPerKey, active.get(key) ?? 0);
    seen.push(key);
    const ms = typeof handleMs === 'function' ? handleMs(key) : handleMs;
    if (ms > 0) await sleep(ms);
    active.set(key, (active.get(key) ?? 1) - 1);
    running--;
  };
  return {
    handler,
    seen,
    get maxRunning() {
      return maxRunning;
    },
    get maxPerKey() {
      return maxPerKey;
    },
  };
}

describe('ExponentialRateLimiter', () => {
  test('doubles per key from the base to the cap, and forget starts over', () => {
    const rl = new ExponentialRateLimiter(5, 60);
    const table: Array<[string, number]> = [
      ['a', 5],
      ['a', 10],
      ['b', 5],
      ['a', 20],
      ['a', 40],
      ['a', 60],
      ['a', 60],
    ];
    for (const [key, want] of table) assert.equal(rl.when(key), want, `when(${key})`);
    assert.equal(rl.retries('a'), 6);
    rl.forget('a');
    assert.equal(rl.retries('a'), 0);
    assert.equal(rl.when('a'), 5);
  });

  test('defaults to 5 ms doubling to 5 minutes, without overflowing', () => {
    const rl = new ExponentialRateLimiter();
    let last = 0;
    for (let i = 0; i < 2000; i++) last = rl.when('k');
    assert.equal(last, 300_000);
  });
});

describe('WorkQueue', () => {
  test('repeated adds of a queued key collapse to one', async () => {
    const q = new WorkQueue();
    for (let i = 0; i < 5; i++) q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.length, 2);
    const rec = recorder();
    const running = q.run(rec.handler, 3);
    await sleep(20);
    await q.shutdown();
    await running;
    assert.deepEqual(rec.seen, ['a', 'b']);
  });

  test('a key is never handled by two workers at once; an add meanwhile handles it once more after', async () => {
    const q = new WorkQueue();
    const rec = recorder(40);
    const running = q.run(rec.handler, 4);
    q.add('a');
    await sleep(10); // 'a' is being handled now
    for (let i = 0; i < 5; i++) q.add('a'); // dirty, not queued: no other worker may take it
    assert.equal(q.length, 0);
    await sleep(120);
    assert.equal(rec.maxPerKey, 1);
    assert.deepEqual(rec.seen, ['a', 'a']);
    await q.shutdown();
    await running;
  });

  test('N workers handle distinct keys in parallel, never more than N at once', async () => {
    const q = new WorkQueue();
    const rec = recorder(50);
    for (let i = 0; i < 8; i++) q.add(`k${i}`);
    const started = Date.now();
    const running = q.run(rec.handler, 4);
    await sleep(5);
    await q.shutdown();
    await running;
    const took = Date.now() - started;
    assert.equal(rec.seen.length, 8);
    assert.equal(rec.maxRunning, 4);
    // Two rounds of 50 ms with 4 workers, not 8 rounds with one.
    assert.ok(took >= 95 && took < 300, `took ${took} ms`);
  });

  test('keys are handled in the order they were added', async () => {
    const q = new WorkQueue();
    for (const k of ['c', 'a', 'b', 'a', 'd']) q.add(k);
    const rec = recorder();
    const running = q.run(rec.handler, 1);
    await q.shutdown();
    await running;
    assert.deepEqual(rec.seen, ['c', 'a', 'b', 'd']);
  });

  test('addAfter waits, and of several delays for one key the earliest stands', async () => {
    const q = new WorkQueue();
    const times = new Map<string, number[]>();
    const t0 = Date.now();
    const running = q.run((key) => {
      times.set(key, [...(times.get(key) ?? []), Date.now() - t0]);
    }, 2);
    q.addAfter('slow', 150);
    q.addAfter('x', 300);
    q.addAfter('x', 100); // earlier: replaces 300
    q.addAfter('x', 200); // later than the pending 100: ignored
    q.addAfter('now', 0);
    await sleep(30);
    assert.deepEqual(times.get('now')?.length, 1);
    assert.equal(times.get('x'), undefined);
    await sleep(400);
    assert.equal(times.get('x')?.length, 1, 'x handled once');
    assert.ok((times.get('x')?.[0] ?? 0) >= 98, `x at ${times.get('x')}`);
    assert.ok((times.get('slow')?.[0] ?? 0) >= 148, `slow at ${times.get('slow')}`);
    await q.shutdown();
    await running;
  });

  test('a failing handler is retried with per-key exponential backoff, forgotten on success', async () => {
    const q = new WorkQueue({ rateLimiter: new ExponentialRateLimiter(10, 1000) });
    const attempts: number[] = [];
    const t0 = Date.now();
    const running = q.run((key) => {
      attempts.push(Date.now() - t0);
      if (attempts.length < 5) throw new Error(`fail ${key}`);
    }, 2);
    q.add('k');
    await sleep(400);
    assert.equal(attempts.length, 5);
    // Waits of 10, 20, 40, 80 ms between attempts: the last starts after >= 150 ms.
    const gaps = attempts.slice(1).map((t, i) => t - (attempts[i] ?? 0));
    for (const [i, want] of [10, 20, 40, 80].entries()) {
      assert.ok((gaps[i] ?? 0) >= want - 2, `gap ${i} was ${gaps[i]} ms, want >= ${want}`);
    }
    assert.equal(q.stats.failures, 4);
    assert.equal(q.rateLimiter.retries('k'), 0, 'forgotten after the success');
    await q.shutdown();
    await running;
  });

  test('a handler can ask to see its key again after a while', async () => {
    const q = new WorkQueue();
    let n = 0;
    const running = q.run(() => (++n < 3 ? { requeueAfterMs: 20 } : undefined));
    q.add('poll');
    await sleep(150);
    assert.equal(n, 3);
    await q.shutdown();
    await running;
  });

  test('shutdown drains what is queued, waits for what runs, then refuses adds', async () => {
    const q = new WorkQueue();
    const rec = recorder(20);
    for (let i = 0; i < 6; i++) q.add(`k${i}`);
    q.addAfter('late', 10_000);
    const running = q.run(rec.handler, 2);
    await sleep(5);
    q.add('k0'); // being handled: handled once more, even though shutdown comes now
    await q.shutdown();
    await running;
    assert.deepEqual([...rec.seen].sort(), ['k0', 'k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
    q.add('after');
    assert.equal(q.length, 0);
    assert.equal(q.has('late'), false, 'delayed keys are cancelled');
  });

  test('shutdown without drain drops what is queued but lets running keys finish', async () => {
    const q = new WorkQueue();
    const rec = recorder(30);
    for (let i = 0; i < 6; i++) q.add(`k${i}`);
    const running = q.run(rec.handler, 2);
    await sleep(5);
    await q.shutdown({ drain: false });
    await running;
    assert.deepEqual(rec.seen, ['k0', 'k1']);
  });

  test('idle workers return at shutdown', async () => {
    const q = new WorkQueue();
    const running = q.run(() => {}, 3);
    await sleep(5);
    await q.shutdown();
    await running;
  });

  test('stress: many adds from many producers, each key handled alone and last add never lost', async () => {
    const q = new WorkQueue();
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    const lastAdded = new Map<string, number>();
    const lastSeenVersion = new Map<string, number>();
    const version = new Map<string, number>();
    const rec = recorder(() => Math.floor(Math.random() * 3));
    const running = q.run(async (key) => {
      // What the handler observes at its start must eventually reach the last version added.
      lastSeenVersion.set(key, version.get(key) ?? 0);
      await rec.handler(key);
    }, 5);
    for (let round = 0; round < 200; round++) {
      const key = keys[Math.floor(Math.random() * keys.length)] ?? 'k0';
      const v = (version.get(key) ?? 0) + 1;
      version.set(key, v);
      lastAdded.set(key, v);
      q.add(key);
      if (round % 10 === 0) await sleep(1);
    }
    await sleep(50);
    await q.shutdown();
    await running;
    assert.equal(rec.maxPerKey, 1);
    for (const [key, v] of lastAdded) assert.equal(lastSeenVersion.get(key), v, `${key} saw its last version`);
  });
});

test('addUrgent: urgent keys are handed out before the others, and a queued key is not added twice', async () => {
  const q = new WorkQueue();
  q.add('a');
  q.add('b');
  q.addUrgent('x');
  q.addUrgent('a'); // already waiting: stays where it is
  q.addUrgent('y');
  assert.equal(q.length, 4);
  const order: string[] = [];
  for (let i = 0; i < 4; i++) {
    const key = (await q.get()) as string;
    order.push(key);
    q.done(key);
  }
  assert.deepEqual(order, ['x', 'y', 'a', 'b']);
});
