import assert from 'node:assert/strict';
import { test } from 'node:test';
import { frameWeight, renderCredits, weightedMinutes } from './credits.ts';

test('frameWeight by pixels', () => {
  const cases: [number, number, number][] = [
    [1920, 1080, 1],
    [1080, 1920, 1],
    [1080, 1080, 1],
    [1921, 1080, 2],
    [2560, 1440, 2],
    [2561, 1440, 4],
    [3840, 2160, 4],
  ];
  for (const [w, h, want] of cases) assert.equal(frameWeight(w, h), want, `${w}x${h}`);
});

test('renderCredits: 10 per weighted minute, drafts half, rounded up', () => {
  const cases: { sec: number; w: number; h: number; draft: boolean; minutes: number; credits: number }[] = [
    { sec: 60, w: 1920, h: 1080, draft: false, minutes: 1, credits: 10 },
    { sec: 60, w: 1920, h: 1080, draft: true, minutes: 0.5, credits: 5 },
    { sec: 60, w: 2560, h: 1440, draft: false, minutes: 2, credits: 20 },
    { sec: 60, w: 3840, h: 2160, draft: true, minutes: 2, credits: 20 },
    { sec: 6, w: 1920, h: 1080, draft: false, minutes: 0.1, credits: 1 },
    { sec: 3, w: 1920, h: 1080, draft: false, minutes: 0.05, credits: 1 },
    { sec: 61, w: 1920, h: 1080, draft: false, minutes: 61 / 60, credits: 11 },
    { sec: 0, w: 1920, h: 1080, draft: false, minutes: 0, credits: 0 },
  ];
  for (const c of cases) {
    const input = { durationSec: c.sec, width: c.w, height: c.h, draft: c.draft };
    assert.ok(Math.abs(weightedMinutes(input) - c.minutes) < 1e-9, JSON.stringify(c));
    assert.equal(renderCredits(input), c.credits, JSON.stringify(c));
  }
});
