import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExponentialRateLimiter, WorkQueue, type WorkQueueMetrics } from '../../operator/kube/work-queue.ts';

test('the work queue reports adds as client-go counts them, waits, work and retries', async () => {
  const seen = { added: 0, queued: [] as number[], worked: [] as number[], retried: 0 };
  const metrics: WorkQueueMetrics = {
    added: () => seen.added++,
    queued: (s) => seen.queued.push(s),
    worked: (s) => seen.worked.push(s),
    retried: () => seen.retried++,
  };
  const queue = new WorkQueue({ metrics, rateLimiter: new ExponentialRateLimiter(1, 1) });
  queue.add('a');
  queue.add('a'); // already waiting: not an add
  queue.addUrgent('b');
  assert.equal(seen.added, 2);
  let failOnce = true;
  const handled: string[] = [];
  const running = queue.run(async (key) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    handled.push(key);
    if (key === 'a' && failOnce) {
      failOnce = false;
      throw new Error('first pass fails');
    }
  });
  for (let i = 0; i < 200 && handled.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  await queue.shutdown();
  await running;
  assert.deepEqual(handled, ['b', 'a', 'a'], 'urgent first, then a, then a again after its backoff');
  assert.equal(seen.retried, 1);
  assert.equal(seen.added, 3, 'the retry added it again');
  assert.equal(seen.queued.length, 3);
  assert.equal(seen.worked.length, 3);
  for (const s of seen.worked) assert.ok(s >= 0.015 && s < 5, `work took about 20 ms: ${s}`);
  // a waited while b was handled (20 ms, one worker).
  assert.ok((seen.queued[1] ?? 0) >= 0.015, `a queued behind b: ${seen.queued[1]}`);
});
