import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { softSides } from './layer-edges.ts';

describe('soft edges', () => {
  const all: [boolean, boolean, boolean, boolean] = [true, true, true, true];
  const rect = { x0: -20, y0: -10, x1: 20, y1: 10 };
  const at = (cx: number, cy: number, sx = 1, sy = sx, rotation = 0) => ({ cx, cy, sx, sy, rotation });

  it('a side on a pixel boundary, unturned, stays hard; one between pixels is soft', () => {
    assert.deepEqual(softSides(rect, all, at(100, 50)), [false, false, false, false]);
    assert.deepEqual(softSides(rect, all, at(100.25, 50)), [true, false, true, false]);
    assert.deepEqual(softSides(rect, all, at(100, 50.5)), [false, true, false, true]);
    // Within 1/512 px of a boundary counts as on it.
    assert.deepEqual(softSides(rect, all, at(100.001, 50)), [false, false, false, false]);
    // Scaled about an integer centre: 20 x 1.05 = 21 from it, 10 x 1.05 = 10.5.
    assert.deepEqual(softSides(rect, all, at(100, 50, 1.05)), [false, true, false, true]);
  });

  it('turned, every side that is the picture’s edge is soft; a side inside the texture never is', () => {
    assert.deepEqual(softSides(rect, all, at(100, 50, 1, 1, 0.5)), all);
    assert.deepEqual(softSides(rect, [true, false, false, true], at(100, 50, 1, 1, 30)), [true, false, false, true]);
    assert.deepEqual(softSides(rect, all, at(100, 50, 1, 1, 360)), [false, false, false, false]);
  });

  it('a side on or past the frame’s border stays hard: it leaves every pixel of the frame whole', () => {
    const frame = { width: 200, height: 100 };
    // Sides at -0.5 and 39.5 across, -10.25 and 9.75 down (the top one past the frame).
    assert.deepEqual(softSides(rect, all, { ...at(19.5, -0.25), frame }), [false, false, true, true]);
    // A background a little larger than the frame, zooming: every side past it.
    const bg = { x0: -100, y0: -50, x1: 100, y1: 50 };
    assert.deepEqual(softSides(bg, all, { ...at(100, 50, 1.013), frame }), [false, false, false, false]);
    // Mirrored (a negative scale): the picture’s left side is on the screen’s right, here past the frame.
    assert.deepEqual(softSides(rect, all, { ...at(185.25, 50, -1, 1), frame }), [false, false, true, false]);
  });

  it('a layer scaled to nothing has no soft side', () => {
    assert.deepEqual(softSides(rect, all, at(100.5, 50.5, 0)), [false, false, false, false]);
  });
});
