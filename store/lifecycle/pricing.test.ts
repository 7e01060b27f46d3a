import assert from 'node:assert/strict';
import { test } from 'node:test';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import { frameWeight, priceRender, renderCredits, weightedMinutes } from './pricing.ts';

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

test('priceRender: from the row, by the full-size frame, test mode free', () => {
  const hd = { schema: 'v1', preset: '16:9', resolution: '1080p' };
  const qhd = { schema: 'v1', preset: '16:9', resolution: '1440p' };
  const cases: {
    name: string;
    render: { movie: unknown; draft: boolean; mode: 'live' | 'test'; width: number; height: number };
    sec: number;
    want: { meteredMinutes: number; credits: number };
  }[] = [
    {
      name: '1080p, one minute',
      render: { movie: hd, draft: false, mode: 'live', width: 1920, height: 1080 },
      sec: 60,
      want: { meteredMinutes: 1, credits: 10 },
    },
    {
      name: 'a 1080p draft is priced at half, not by its half-size frame',
      render: { movie: { ...hd, draft: true }, draft: true, mode: 'live', width: 960, height: 540 },
      sec: 60,
      want: { meteredMinutes: 0.5, credits: 5 },
    },
    {
      name: '1440p weighs 2',
      render: { movie: qhd, draft: false, mode: 'live', width: 2560, height: 1440 },
      sec: 30,
      want: { meteredMinutes: 1, credits: 10 },
    },
    {
      name: 'a 1440p draft: weight 2, halved',
      render: { movie: { ...qhd, draft: true }, draft: true, mode: 'live', width: 1280, height: 720 },
      sec: 60,
      want: { meteredMinutes: 1, credits: 10 },
    },
    {
      name: 'explicit width and height',
      render: {
        movie: { schema: 'v1', width: 3840, height: 2160 },
        draft: false,
        mode: 'live',
        width: 3840,
        height: 2160,
      },
      sec: 15,
      want: { meteredMinutes: 1, credits: 10 },
    },
    {
      name: 'a still is metered as one second of video at its frame size, whatever the movie lasts',
      render: {
        movie: { ...hd, output: { format: 'png', time: 3 } },
        draft: false,
        mode: 'live',
        width: 1920,
        height: 1080,
      },
      sec: 120,
      want: { meteredMinutes: 0.0167, credits: 1 },
    },
    {
      name: 'a 4K JPEG still weighs 4: still one credit (the minimum)',
      render: {
        movie: { schema: 'v1', width: 3840, height: 2160, output: { format: 'jpeg' } },
        draft: false,
        mode: 'live',
        width: 3840,
        height: 2160,
      },
      sec: 30,
      want: { meteredMinutes: 0.0667, credits: 1 },
    },
    {
      name: 'a video with a poster time is priced by its length',
      render: {
        movie: { ...hd, output: { format: 'mp4', posterTime: 1 } },
        draft: false,
        mode: 'live',
        width: 1920,
        height: 1080,
      },
      sec: 60,
      want: { meteredMinutes: 1, credits: 10 },
    },
    {
      name: 'test mode is metered but free',
      render: { movie: hd, draft: false, mode: 'test', width: 1920, height: 1080 },
      sec: 60,
      want: { meteredMinutes: 1, credits: 0 },
    },
    {
      name: 'metered minutes keep 4 decimals',
      render: { movie: hd, draft: false, mode: 'live', width: 1920, height: 1080 },
      sec: 42.5,
      want: { meteredMinutes: 0.7083, credits: 8 },
    },
    {
      name: 'a movie without a frame size is priced by the stored frame, a draft doubled back',
      render: { movie: { schema: 'v1' }, draft: true, mode: 'live', width: 1280, height: 720 },
      sec: 60,
      want: { meteredMinutes: 1, credits: 10 },
    },
    {
      name: 'an unknown preset is priced by the stored frame',
      render: { movie: { preset: '7:3' }, draft: false, mode: 'live', width: 1280, height: 720 },
      sec: 60,
      want: { meteredMinutes: 1, credits: 10 },
    },
  ];
  for (const c of cases)
    assert.deepEqual(
      priceRender({ ...c.render, outputFormat: movieOutputFormat(c.render.movie) }, c.sec),
      c.want,
      c.name,
    );
});
