/**
 * Shape elements rendered with the real ffmpeg and headless-gl, read back from the decoded frames:
 * where edges fall, rounded corners, anti-aliased boundaries, gradient colours, stroke widths and
 * dash gaps, a stroke reaching outside its box.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateMovie } from '../../movie/index.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameRgb, near, pixel } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-shapes-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const W = 320;
const H = 180;

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

const luma = (rgb: Buffer, x: number, y: number) => {
  const [r, g, b] = pixel(rgb, W, x, y);
  return Math.round(0.2126 * r + 0.7152 * g + 0.0722 * b);
};

describe('shape elements', () => {
  let rgb: Buffer;
  before(async () => {
    const movie = valid({
      schema: 'v1',
      width: W,
      height: H,
      fps: 10,
      scenes: [
        {
          id: 's',
          duration: 0.2,
          background: '#000000',
          elements: [
            {
              id: 'rect',
              type: 'shape',
              shape: 'rectangle',
              position: { x: 20, y: 20 },
              width: 80,
              height: 40,
              cornerRadius: 12,
              fill: '#ffffff',
            },
            { id: 'circle', type: 'shape', shape: 'ellipse', position: { x: 120, y: 20 }, width: 60, height: 60 },
            {
              id: 'gradient',
              type: 'shape',
              shape: 'rectangle',
              position: { x: 200, y: 20 },
              width: 100,
              height: 40,
              fill: {
                type: 'linear',
                angle: 90,
                stops: [
                  { offset: 0, color: '#ff0000' },
                  { offset: 1, color: '#0000ff' },
                ],
              },
            },
            {
              id: 'dashes',
              type: 'shape',
              shape: 'line',
              position: { x: 20, y: 100 },
              width: 100,
              height: 20,
              from: { x: 0, y: 10 },
              to: { x: 100, y: 10 },
              stroke: { width: 6, color: '#ffffff', dash: [10, 10] },
            },
            {
              id: 'outline',
              type: 'shape',
              shape: 'path',
              position: { x: 200, y: 100 },
              width: 40,
              height: 40,
              d: 'M0 0 H40 V40 H0 Z',
              stroke: { width: 4, color: '#ffffff' },
            },
          ],
        },
      ],
    });
    const out = join(dir, 'shapes.mp4');
    await renderMovie({ movie, output: out, config, quality: 'lossless' });
    rgb = await frameRgb(out, 1);
    assert.equal(rgb.length, W * H * 3);
  });

  it('puts a rectangle’s edges on its box and rounds its corners', () => {
    // Middle row: the box is columns [20, 100), rows [20, 60).
    assert.ok(luma(rgb, 19, 40) < 10, 'left of the box is background');
    assert.ok(luma(rgb, 20, 40) > 245, 'the first column is filled');
    assert.ok(luma(rgb, 99, 40) > 245, 'the last column is filled');
    assert.ok(luma(rgb, 100, 40) < 10, 'right of the box is background');
    assert.ok(luma(rgb, 60, 19) < 10 && luma(rgb, 60, 20) > 245 && luma(rgb, 60, 59) > 245 && luma(rgb, 60, 60) < 10);
    // A 12-pixel radius: the corner pixels are outside the arc, the arc's inside is filled.
    for (const [x, y] of [
      [20, 20],
      [99, 20],
      [20, 59],
      [99, 59],
      [21, 21],
    ] as const)
      assert.ok(luma(rgb, x, y) < 10, `corner pixel ${x},${y} is background`);
    assert.ok(luma(rgb, 20 + 12, 20) > 245, 'the top edge is straight past the radius');
    assert.ok(luma(rgb, 26, 26) > 245, 'inside the arc is filled');
  });

  it('draws an ellipse’s boundary where it is, anti-aliased', () => {
    // A circle of radius 30 centred at (150, 50): pixel centres clearly inside are white, clearly
    // outside black, and the boundary ring has partly covered pixels.
    let partial = 0;
    let ring = 0;
    for (let y = 18; y < 83; y++) {
      for (let x = 118; x < 183; x++) {
        const d = Math.hypot(x + 0.5 - 150, y + 0.5 - 50);
        const v = luma(rgb, x, y);
        if (d < 29) assert.ok(v > 240, `inside at ${x},${y} (${d.toFixed(2)} from the centre) is ${v}`);
        else if (d > 31) assert.ok(v < 15, `outside at ${x},${y} (${d.toFixed(2)} from the centre) is ${v}`);
        else {
          ring++;
          if (v > 20 && v < 235) partial++;
        }
      }
    }
    // Every boundary pixel is partly covered in an anti-aliased drawing; a hard edge has none.
    assert.ok(partial > ring / 3, `${partial} of ${ring} boundary pixels are partly covered`);
  });

  it('runs a linear gradient from its first colour to its last', () => {
    const left = pixel(rgb, W, 200, 40);
    const mid = pixel(rgb, W, 250, 40);
    const right = pixel(rgb, W, 299, 40);
    assert.ok(near(left, [255, 0, 0], 14), `left end ${left}`);
    assert.ok(near(right, [0, 0, 255], 14), `right end ${right}`);
    // Half way: half of each, blended in sRGB.
    assert.ok(near(mid, [127, 0, 128], 14), `middle ${mid}`);
    // Vertical: the same colour down a column (angle 90 runs left to right).
    assert.ok(near(pixel(rgb, W, 250, 22), mid, 6));
  });

  it('strokes a line at its width, with dash gaps', () => {
    // Centred on y = 110, 6 wide: rows [107, 113).
    assert.ok(luma(rgb, 25, 106) < 10 && luma(rgb, 25, 107) > 245 && luma(rgb, 25, 112) > 245);
    assert.ok(luma(rgb, 25, 113) < 10);
    // On 10, off 10 from x = 20: [20, 30) on, [30, 40) off, [40, 50) on ...
    for (const x of [22, 28, 42, 48, 62, 88]) assert.ok(luma(rgb, x, 110) > 245, `dash at ${x}`);
    for (const x of [32, 38, 52, 58, 72, 98]) assert.ok(luma(rgb, x, 110) < 10, `gap at ${x}`);
  });

  it('draws the part of a stroke outside its box, and no fill when only stroked', () => {
    // The top edge, 4 wide, centred on the box's top row (y = 100): rows [98, 102).
    assert.ok(luma(rgb, 220, 97) < 10 && luma(rgb, 220, 98) > 245 && luma(rgb, 220, 101) > 245);
    assert.ok(luma(rgb, 220, 102) < 10, 'inside the outline is not filled');
    assert.ok(luma(rgb, 220, 120) < 10, 'the middle is not filled');
    assert.ok(luma(rgb, 198, 120) > 245 && luma(rgb, 197, 120) < 10, 'left edge outside the box');
  });
});
