import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildTimeline, estimateDurationSec, transitionOverlaps, validateMovie } from './index.ts';
import type { Movie } from './validate.ts';

const movie = (scenes: { d: number; t?: number }[]): Movie =>
  ({
    schema: 'v1',
    width: 320,
    height: 180,
    scenes: scenes.map((s, i) => ({
      id: `s${i}`,
      duration: s.d,
      ...(s.t === undefined ? {} : { transition: { type: 'crossfade', duration: s.t } }),
      elements: [{ id: `t${i}`, type: 'text', text: 'x' }],
    })),
  }) as Movie;

describe('timeline with transitions', () => {
  it('starts a scene its transition earlier: the movie is shorter by the overlaps', () => {
    const m = movie([{ d: 2 }, { d: 3, t: 1 }, { d: 2, t: 0.5 }]);
    const tl = buildTimeline(m, [2, 3, 2], 30);
    assert.deepEqual(
      tl.scenes.map((s) => [s.startSec, s.endSec, s.startFrame, s.endFrame]),
      [
        [0, 2, 0, 60],
        [1, 4, 30, 120],
        [3.5, 5.5, 105, 165],
      ],
    );
    assert.equal(tl.durationSec, 5.5);
    assert.equal(tl.totalFrames, 165);
    assert.deepEqual(tl.scenes[1]!.transition, { type: 'crossfade', durationSec: 1 });
    assert.equal(tl.scenes[0]!.transition, undefined);
    assert.equal(estimateDurationSec(m), 5.5);
  });

  it('cuts a transition to what both scenes can give ("voice" and "video" lengths)', () => {
    const m = movie([{ d: 1 }, { d: 1, t: 2 }, { d: 5, t: 0.8 }]);
    // Scene 1 overlaps scene 0 by all of its 1 s; nothing is left of it for scene 2's transition.
    assert.deepEqual(transitionOverlaps(m, [1, 1, 5]), [0, 1, 0]);
    const m2 = movie([{ d: 3 }, { d: 2, t: 1.5 }, { d: 5, t: 0.8 }]);
    assert.deepEqual(transitionOverlaps(m2, [3, 2, 5]), [0, 1.5, 0.5]);
  });

  it('the validator refuses what the timeline would have to cut, where durations are numbers', () => {
    const r = validateMovie(movie([{ d: 1 }, { d: 1, t: 2 }]));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.findings.map((f) => [f.code, f.path]),
      [['VALIDATION_ERROR', 'scenes[1].transition.duration']],
    );
  });

  it('never has more than two scenes on one frame, and transitions never move a scene past its neighbour', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            d: fc.double({ min: 0.05, max: 20, noNaN: true }),
            t: fc.option(fc.double({ min: 0.01, max: 5, noNaN: true }), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.constantFrom(1, 24, 25, 30, 60),
        (scenes, fps) => {
          const m = movie(scenes);
          const tl = buildTimeline(
            m,
            scenes.map((s) => s.d),
            fps,
          );
          const overlaps = transitionOverlaps(
            m,
            scenes.map((s) => s.d),
          );
          let sum = 0;
          for (const s of scenes) sum += s.d;
          for (const o of overlaps) sum -= o;
          assert.ok(Math.abs(tl.durationSec - sum) < 1e-6);
          for (let i = 1; i < tl.scenes.length; i++) {
            const prev = tl.scenes[i - 1]!;
            const cur = tl.scenes[i]!;
            assert.ok(cur.startSec >= prev.startSec - 1e-9, 'scenes stay in order');
            assert.ok(cur.startFrame <= prev.endFrame, 'no gap between scenes');
            if (i >= 2) assert.ok(cur.startFrame >= tl.scenes[i - 2]!.endFrame, 'at most two scenes per frame');
          }
          assert.equal(tl.totalFrames, tl.scenes.at(-1)!.endFrame);
        },
      ),
      { numRuns: 300 },
    );
  });
});
