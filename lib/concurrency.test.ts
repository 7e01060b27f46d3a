import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limitConcurrency } from './concurrency.ts';

test('limitConcurrency runs at most n at once, all of them, in order, failures included', async () => {
  const limit = limitConcurrency(2);
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  const results = await Promise.allSettled(
    Array.from({ length: 7 }, (_, i) =>
      limit(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (i === 3) throw new Error('three');
        return i;
      }),
    ),
  );
  assert.equal(peak, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
    [0, 1, 2, 'three', 4, 5, 6],
  );
});
