/** Validation of shape elements: each finding at its exact path with its catalogued code. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateMovie } from '../index.ts';
import { pathDataProblem } from './shape.ts';

const doc = (el: Record<string, unknown>) => ({
  schema: 'v1',
  width: 160,
  height: 90,
  scenes: [{ id: 's', duration: 1, elements: [{ id: 'a', type: 'shape', ...el }] }],
});

const findings = (el: Record<string, unknown>) => {
  const r = validateMovie(doc(el));
  return r.ok ? [] : r.findings.map((f) => ({ code: f.code, path: f.path, message: f.message }));
};
const at = (el: Record<string, unknown>) => findings(el).map((f) => `${f.code} ${f.path}`);
const P = 'scenes[0].elements[0]';

describe('shape validation', () => {
  it('accepts each kind with its own fields', () => {
    const stops = [
      { offset: 0, color: '#ff0000' },
      { offset: 0.5, color: 'white' },
      { offset: 1, color: '#0000ff80' },
    ];
    for (const el of [
      { shape: 'rectangle', cornerRadius: 8, fill: { type: 'linear', angle: 45, stops } },
      { shape: 'ellipse', fill: { type: 'radial', stops }, stroke: { width: 2, color: 'red', dash: [4, 2, 1] } },
      { shape: 'line', from: { x: 0, y: 0 }, to: { x: 10, y: -5 }, stroke: { width: 1, color: 'red' } },
      {
        shape: 'polygon',
        points: [
          { x: 0, y: 0 },
          { x: 10, y: 0 },
          { x: 5, y: 9 },
        ],
      },
      {
        shape: 'path',
        d: 'M10,20 l5-5 h3 v-2 c1 2 3 4 5 6 s1 1 2 2 q1 1 2 2 t3 3 a5 5 0 1 0 10 10 A2 2 30 0110 10z m1 1 2 2 Z',
      },
      {
        shape: 'rectangle',
        width: 100,
        height: 50,
        position: { x: 3, y: 4 },
        start: 0.2,
        duration: 0.5,
        animation: { preset: 'fade-in' },
      },
    ])
      assert.deepEqual(findings(el), [], JSON.stringify(el));
  });

  it('reports path data that does not parse at d', () => {
    for (const [d, text] of [
      ['L0 0', /must start with a moveto/],
      ['M0 0 L 10', /command L needs 2 numbers per segment; got 1/],
      ['M0 0 X 1 2', /"X" is not a path command at character 6/],
      ['M0 0 A5 5 0 2 1 10 10', /arc flag must be 0 or 1/],
      ['M0 0 L1 #', /"#" is not a number/],
      ['   ', /empty/],
    ] as const) {
      const f = findings({ shape: 'path', d });
      assert.equal(f.length, 1, d);
      assert.equal(f[0]!.code, 'VALIDATION_ERROR');
      assert.equal(f[0]!.path, `${P}.d`);
      assert.match(f[0]!.message, text);
    }
  });

  it('reports a missing or misplaced field of a kind at that field', () => {
    assert.deepEqual(at({ shape: 'path' }), [`VALIDATION_ERROR ${P}.d`]);
    assert.deepEqual(at({ shape: 'polygon' }), [`VALIDATION_ERROR ${P}.points`]);
    assert.deepEqual(at({ shape: 'line', from: { x: 0, y: 0 }, to: { x: 1, y: 1 } }), [`VALIDATION_ERROR ${P}.stroke`]);
    assert.deepEqual(at({ shape: 'ellipse', cornerRadius: 4 }), [`VALIDATION_ERROR ${P}.cornerRadius`]);
    assert.deepEqual(at({ shape: 'rectangle', d: 'M0 0' }), [`VALIDATION_ERROR ${P}.d`]);
    assert.deepEqual(
      at({ shape: 'line', from: { x: 0, y: 0 }, to: { x: 1, y: 1 }, stroke: { width: 1, color: 'red' }, fill: 'red' }),
      [`VALIDATION_ERROR ${P}.fill`],
    );
  });

  it('bounds points, stops and dashes', () => {
    const points = Array.from({ length: 1001 }, (_, i) => ({ x: i % 50, y: i % 7 }));
    assert.deepEqual(at({ shape: 'polygon', points }), [`VALIDATION_ERROR ${P}.points`]);
    assert.deepEqual(at({ shape: 'polygon', points: points.slice(0, 2) }), [`VALIDATION_ERROR ${P}.points`]);
    assert.deepEqual(
      at({
        shape: 'polygon',
        points: [
          { x: 0, y: 0 },
          { x: 1, y: 0 },
          { x: 0, y: 1e6 },
        ],
      }),
      [`VALIDATION_ERROR ${P}.points[2].y`],
    );
    const stops = (offsets: number[]) => offsets.map((offset) => ({ offset, color: 'red' }));
    assert.deepEqual(at({ shape: 'ellipse', fill: { type: 'radial', stops: stops([0, 0.6, 0.4]) } }), [
      `VALIDATION_ERROR ${P}.fill.stops[2].offset`,
    ]);
    assert.deepEqual(at({ shape: 'ellipse', fill: { type: 'linear', stops: stops([0]) } }), [
      `VALIDATION_ERROR ${P}.fill.stops`,
    ]);
    assert.deepEqual(at({ shape: 'ellipse', fill: { type: 'conic', stops: stops([0, 1]) } }), [
      `SCHEMA_INVALID ${P}.fill.type`,
    ]);
    assert.deepEqual(at({ shape: 'ellipse', fill: '#12' }), [`VALIDATION_ERROR ${P}.fill`]);
    assert.deepEqual(at({ shape: 'ellipse', stroke: { width: 2, color: 'red', dash: [0, 0] } }), [
      `VALIDATION_ERROR ${P}.stroke.dash`,
    ]);
    assert.deepEqual(at({ shape: 'ellipse', stroke: { width: 0, color: 'red' } }), [
      `VALIDATION_ERROR ${P}.stroke.width`,
    ]);
    assert.deepEqual(at({ shape: 'star' }), [`SCHEMA_INVALID ${P}.shape`]);
    assert.deepEqual(at({ shape: 'ellipse', src: 'https://x.test/a.png' }), [`SCHEMA_INVALID ${P}.src`]);
  });

  it('accepts implicit repeats, packed numbers and arc flags, exponents', () => {
    assert.equal(pathDataProblem('M0 0 10 10 20 0'), undefined);
    assert.equal(pathDataProblem('m1e2-3.5 .5.5 a1 1 0 00 1 1'), undefined);
    assert.equal(pathDataProblem('M0,0ZL1,1'), undefined);
    assert.match(pathDataProblem('M0 0 C1 2 3 4 5') ?? '', /C needs 6 numbers per segment; got 5/);
  });
});
