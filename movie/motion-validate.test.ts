/** Validation of keyframes (`animate`), entry/exit presets and `textAnimation`: each problem at its exact path. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveMovie, validateMovie, validateTemplate } from './index.ts';

type Json = Record<string, unknown>;

function doc(text: Json, audio: Json = {}): Json {
  return {
    schema: 'v1',
    width: 320,
    height: 180,
    scenes: [
      {
        id: 's',
        duration: 4,
        elements: [
          { id: 't', type: 'text', text: 'Hello', duration: 2, ...text },
          { id: 'a', type: 'audio', src: 'https://example.com/a.wav', ...audio },
        ],
      },
    ],
  };
}
const T = 'scenes[0].elements[0]';

const CASES: [string, Json, [string, string][], Json?][] = [
  [
    'keys out of order',
    {
      animate: {
        x: [
          { time: 1, value: 0 },
          { time: 0.5, value: 10 },
        ],
      },
    },
    [['VALIDATION_ERROR', `${T}.animate.x[1].time`]],
  ],
  [
    'percentages out of order',
    {
      animate: {
        opacity: [
          { time: '60%', value: 0 },
          { time: '50%', value: 1 },
        ],
      },
    },
    [['VALIDATION_ERROR', `${T}.animate.opacity[1].time`]],
  ],
  [
    'a second key past the element end (duration 2)',
    {
      animate: {
        rotation: [
          { time: 0, value: 0 },
          { time: 2.5, value: 90 },
        ],
      },
    },
    [['VALIDATION_ERROR', `${T}.animate.rotation[1].time`]],
  ],
  [
    'a percentage past 100%',
    { animate: { y: [{ time: '120%', value: 0 }] } },
    [['VALIDATION_ERROR', `${T}.animate.y[0].time`]],
  ],
  [
    'a percentage and seconds out of order (the duration is known)',
    {
      animate: {
        y: [
          { time: '75%', value: 0 },
          { time: 1, value: 5 },
        ],
      },
    },
    [['VALIDATION_ERROR', `${T}.animate.y[1].time`]],
  ],
  [
    'opacity above 1',
    { animate: { opacity: [{ time: 0, value: 1.5 }] } },
    [['VALIDATION_ERROR', `${T}.animate.opacity[0].value`]],
  ],
  [
    'negative scale',
    { animate: { scale: [{ time: 0, value: -1 }] } },
    [['VALIDATION_ERROR', `${T}.animate.scale[0].value`]],
  ],
  [
    'crop without height',
    { animate: { crop: [{ time: 0, value: { x: 0, y: 0, width: 5 } }] } },
    [['SCHEMA_INVALID', `${T}.animate.crop[0].value.height`]],
  ],
  ['an empty track', { animate: { x: [] } }, [['VALIDATION_ERROR', `${T}.animate.x`]]],
  ['an unknown property', { animate: { skew: [{ time: 0, value: 1 }] } }, [['SCHEMA_INVALID', `${T}.animate.skew`]]],
  ['volume on text', { animate: { volume: [{ time: 0, value: 1 }] } }, [['SCHEMA_INVALID', `${T}.animate.volume`]]],
  [
    'an unknown easing',
    { animate: { x: [{ time: 0, value: 0, easing: 'bounce' }] } },
    [['VALIDATION_ERROR', `${T}.animate.x[0].easing`]],
  ],
  [
    'cubic-bezier x out of [0, 1]',
    { animate: { x: [{ time: 0, value: 0, easing: 'cubic-bezier(1.5, 0, 0.5, 1)' }] } },
    [['VALIDATION_ERROR', `${T}.animate.x[0].easing`]],
  ],
  [
    'spring with zero mass',
    { animate: { x: [{ time: 0, value: 0, easing: 'spring(0, 100, 10)' }] } },
    [['VALIDATION_ERROR', `${T}.animate.x[0].easing`]],
  ],
  [
    'a time that is neither seconds nor a percentage',
    { animate: { x: [{ time: '1s', value: 0 }] } },
    [['VALIDATION_ERROR', `${T}.animate.x[0].time`]],
  ],
  [
    'preset together with in',
    { animation: { preset: 'fade-in', in: { preset: 'fade' } } },
    [['VALIDATION_ERROR', `${T}.animation.preset`]],
  ],
  ['an empty animation', { animation: {} }, [['SCHEMA_INVALID', `${T}.animation.preset`]]],
  [
    'an old preset name under out',
    { animation: { out: { preset: 'fade-out' } } },
    [['SCHEMA_INVALID', `${T}.animation.out.preset`]],
  ],
  [
    'duration beside in/out',
    { animation: { in: { preset: 'zoom' }, duration: 1 } },
    [['VALIDATION_ERROR', `${T}.animation.duration`]],
  ],
  [
    'textAnimation with an unknown unit',
    { textAnimation: { unit: 'line', style: 'fade', stagger: 0.1 } },
    [['SCHEMA_INVALID', `${T}.textAnimation.unit`]],
  ],
  [
    'audio volume above the limit',
    {},
    [['VALIDATION_ERROR', 'scenes[0].elements[1].animate.volume[0].value']],
    { animate: { volume: [{ time: 0, value: 5 }] } },
  ],
];

describe('keyframe and animation validation', () => {
  for (const [name, text, expected, audio] of CASES) {
    test(name, () => {
      const r = validateMovie(doc(text, audio));
      assert.equal(r.ok, false);
      assert.deepEqual(
        r.ok ? [] : r.findings.map((f) => [f.code, f.path]),
        expected,
        r.ok ? '' : JSON.stringify(r.findings),
      );
    });
  }

  test('valid: every property, easings of every kind, in/out, the old preset, text animation', () => {
    const r = validateMovie(
      doc({
        animation: { in: { preset: 'slide-up', duration: 0.5, easing: 'spring(1, 170, 26)' }, out: { preset: 'zoom' } },
        animate: {
          x: [
            { time: 0, value: 0, easing: 'ease' },
            { time: '50%', value: 100 },
            { time: 2, value: 0 },
          ],
          opacity: [
            { time: 0, value: 0, easing: 'steps(3, jump-start)' },
            { time: 1, value: 1 },
          ],
          crop: [
            { time: 0, value: { x: 0, y: 0, width: 0, height: 90 } },
            { time: 1, value: { x: 0, y: 0, width: 320, height: 90 } },
          ],
        },
        textAnimation: { unit: 'word', style: 'typewriter', stagger: 0.2 },
      }),
    );
    assert.deepEqual(r.ok ? [] : r.findings, []);
    const old = validateMovie(doc({ animation: { preset: 'zoom-in', duration: 0.4 } }));
    assert.ok(old.ok);
  });

  test('templates: a key time, value and easing from variables, checked once resolved', () => {
    const template = {
      ...doc({
        animate: {
          x: [
            { time: 0, value: '{{from}}', easing: '{{curve}}' },
            { time: '{{at}}', value: 100 },
          ],
        },
      }),
      variables: {
        from: { type: 'number', default: 0 },
        at: { type: 'number', default: 1 },
        curve: { type: 'string', default: 'ease-in' },
      },
    };
    const t = validateTemplate(template);
    assert.ok(t.ok, JSON.stringify(t.ok ? [] : t.findings));
    const good = resolveMovie(template, { from: 20, at: 1.5, curve: 'spring(1, 100, 10)' });
    assert.ok(good.ok, JSON.stringify(good.ok ? [] : good.findings));
    const late = resolveMovie(template, { at: 3 });
    assert.deepEqual(late.ok ? [] : late.findings.map((f) => [f.code, f.path]), [
      ['VALIDATION_ERROR', `${T}.animate.x[1].time`],
    ]);
    const curve = resolveMovie(template, { curve: 'wobbly' });
    assert.deepEqual(curve.ok ? [] : curve.findings.map((f) => [f.code, f.path]), [
      ['VALIDATION_ERROR', `${T}.animate.x[0].easing`],
    ]);
  });
});
