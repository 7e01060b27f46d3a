import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffDelay, retryAfterMs } from './backoff.ts';
import { maxScriptCredits, scriptCredits } from './script-credits.ts';

test('backoff doubles from 0.5 s and caps at 8 s; jitter keeps at least half', () => {
  const top = () => 1;
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 9].map((r) => backoffDelay(r, top)),
    [500, 1000, 2000, 4000, 8000, 8000, 8000],
  );
  assert.deepEqual(
    [0, 1, 4].map((r) => backoffDelay(r, () => 0)),
    [250, 500, 4000],
  );
});

test('Retry-After wins over the schedule but is capped', () => {
  assert.equal(
    backoffDelay(0, () => 1, 3000),
    3000,
  );
  assert.equal(
    backoffDelay(0, () => 1, 600_000),
    8000,
  );
});

test('retryAfterMs reads milliseconds, seconds and dates', () => {
  const h = (o: Record<string, string>) => new Headers(o);
  assert.equal(retryAfterMs(h({ 'retry-after-ms': '250' }), 0), 250);
  assert.equal(retryAfterMs(h({ 'retry-after': '2' }), 0), 2000);
  assert.equal(retryAfterMs(h({ 'retry-after': new Date(10_000).toUTCString() }), 4000), 6000);
  assert.equal(retryAfterMs(h({}), 0), null);
  assert.equal(retryAfterMs(undefined, 0), null);
});

test('script credits: max(2, ceil(scenes / 4)); the pre-check uses the largest charge', () => {
  assert.deepEqual([1, 4, 8, 9, 12, 13, 14, 50].map(scriptCredits), [2, 2, 2, 3, 3, 4, 4, 13]);
  assert.equal(maxScriptCredits({ sceneCount: null }), 4);
  assert.equal(maxScriptCredits({ sceneCount: 3 }), 2);
  assert.equal(maxScriptCredits({ sceneCount: 50 }), 13);
});
