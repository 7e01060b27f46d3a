import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RenderStatus } from '../types.ts';
import { type ActivePhase, advanceProgress, advanceStatus, webhookBackoffMs } from './transitions.ts';

describe('advanceStatus', () => {
  const cases: [RenderStatus, ActivePhase, RenderStatus][] = [
    ['queued', 'preparing', 'preparing'],
    ['preparing', 'rendering', 'rendering'],
    ['preparing', 'preparing', 'preparing'],
    // A retry re-runs preparation; the status shown does not go back.
    ['rendering', 'preparing', 'rendering'],
    ['done', 'rendering', 'done'],
    ['failed', 'preparing', 'failed'],
  ];
  for (const [from, phase, want] of cases) {
    it(`${from} + ${phase} -> ${want}`, () => assert.equal(advanceStatus(from, phase), want));
  }
});

describe('advanceProgress', () => {
  const cases: [number, ActivePhase, number, number][] = [
    [0, 'preparing', 10, 10],
    [0, 'preparing', 55, 20],
    [0, 'rendering', 0, 20],
    [20, 'rendering', 99.7, 99],
    [20, 'rendering', 150, 99],
    [60, 'preparing', 5, 60],
    [60, 'rendering', 40, 60],
    [0, 'preparing', Number.NaN, 0],
    [0, 'preparing', -4, 0],
  ];
  for (const [current, phase, reported, want] of cases) {
    it(`${current} + ${phase} ${reported} -> ${want}`, () =>
      assert.equal(advanceProgress(current, phase, reported), want));
  }
});

describe('webhookBackoffMs', () => {
  it('doubles from 30 s to a one-hour cap, within 20% jitter', () => {
    const mid = () => 0.5;
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => webhookBackoffMs(n, mid)),
      [30_000, 60_000, 120_000, 240_000],
    );
    assert.equal(webhookBackoffMs(20, mid), 3_600_000);
    assert.equal(
      webhookBackoffMs(1, () => 0),
      24_000,
    );
    assert.equal(
      webhookBackoffMs(1, () => 1),
      36_000,
    );
  });
});
