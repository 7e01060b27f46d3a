import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildTimeline,
  DEFAULT_FONT,
  defaultVoiceFor,
  estimateDurationSec,
  FONT_FAMILIES,
  type Movie,
  outputFrame,
  VOICE_TAIL_SEC,
  VOICES,
  validateMovie,
  WORDS_PER_MINUTE,
} from './index.ts';

function movie(fields: Record<string, unknown>, scenes?: unknown[]): Movie {
  const r = validateMovie({
    schema: 'v1',
    ...fields,
    scenes: scenes ?? [{ id: 's', duration: 1, elements: [{ id: 't', type: 'text', text: 'x' }] }],
  });
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

describe('outputFrame', () => {
  const cases: [Record<string, unknown>, boolean, [number, number, number]][] = [
    [{ preset: '16:9' }, false, [1920, 1080, 30]],
    [{ preset: '9:16' }, false, [1080, 1920, 30]],
    [{ preset: '1:1', resolution: '720p' }, false, [720, 720, 30]],
    [{ preset: '4:5' }, false, [1080, 1350, 30]],
    [{ preset: '4:3', resolution: '1440p' }, false, [1920, 1440, 30]],
    [{ preset: '16:9', resolution: '480p' }, false, [854, 480, 30]],
    [{ preset: '16:9', resolution: '2160p', fps: 60 }, false, [3840, 2160, 60]],
    [{ width: 1280, height: 720, fps: 24 }, false, [1280, 720, 24]],
    [{ preset: '16:9' }, true, [960, 540, 30]],
    [{ preset: '16:9', draft: true }, false, [960, 540, 30]],
    [{ preset: '16:9', resolution: '480p', draft: true }, false, [428, 240, 30]],
    [{ width: 1002, height: 18, draft: true }, false, [502, 10, 30]],
  ];
  for (const [fields, draft, [width, height, fps]] of cases) {
    test(`${JSON.stringify(fields)}${draft ? ' as draft' : ''}`, () => {
      assert.deepEqual(outputFrame(movie(fields), { draft }), { width, height, fps });
    });
  }
});

describe('estimateDurationSec', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  const secPerWord = 60 / WORDS_PER_MINUTE;
  const cases: [string, unknown[], number][] = [
    [
      'numeric durations are summed',
      [
        { id: 'a', duration: 2.5, elements: [{ id: 't1', type: 'text', text: 'x' }] },
        { id: 'b', duration: 4, elements: [{ id: 't2', type: 'text', text: 'x' }] },
      ],
      6.5,
    ],
    [
      'a voice scene from its word count plus the tail',
      [{ id: 'a', duration: 'voice', elements: [{ id: 'v', type: 'voice', text: words(150) }] }],
      60 + VOICE_TAIL_SEC,
    ],
    [
      'the latest-ending voice element decides, counting its start',
      [
        {
          id: 'a',
          duration: 'voice',
          elements: [
            { id: 'v1', type: 'voice', text: words(10) },
            { id: 'v2', type: 'voice', text: words(5), start: 3 },
          ],
        },
      ],
      Math.max(10 * secPerWord, 3 + 5 * secPerWord) + VOICE_TAIL_SEC,
    ],
    [
      'mixed',
      [
        { id: 'a', duration: 1, elements: [{ id: 't', type: 'text', text: 'x' }] },
        { id: 'b', duration: 'voice', elements: [{ id: 'v', type: 'voice', text: '  two   words ' }] },
      ],
      1 + 2 * secPerWord + VOICE_TAIL_SEC,
    ],
  ];
  for (const [name, scenes, expected] of cases) {
    test(name, () => {
      assert.ok(Math.abs(estimateDurationSec(movie({ preset: '1:1' }, scenes)) - expected) < 1e-9);
    });
  }
});

describe('buildTimeline', () => {
  const three = movie(
    { preset: '1:1' },
    ['a', 'b', 'c'].map((id) => ({ id, duration: 1, elements: [{ id: `t${id}`, type: 'text', text: 'x' }] })),
  );
  test('frame boundaries are rounded cumulative times', () => {
    assert.deepEqual(buildTimeline(three, [0.1, 0.2, 0.3], 30), {
      durationSec: 0.1 + 0.2 + 0.3,
      totalFrames: 18,
      scenes: [
        { id: 'a', index: 0, startSec: 0, endSec: 0.1, startFrame: 0, endFrame: 3 },
        { id: 'b', index: 1, startSec: 0.1, endSec: 0.1 + 0.2, startFrame: 3, endFrame: 9 },
        { id: 'c', index: 2, startSec: 0.1 + 0.2, endSec: 0.1 + 0.2 + 0.3, startFrame: 9, endFrame: 18 },
      ],
    });
  });
  test('rounding is per boundary, so totals do not drift', () => {
    const t = buildTimeline(three, [1 / 3, 1 / 3, 1 / 3], 25);
    assert.deepEqual(
      t.scenes.map((s) => [s.startFrame, s.endFrame]),
      [
        [0, 8],
        [8, 17],
        [17, 25],
      ],
    );
    assert.equal(t.totalFrames, 25);
  });
  test('a half frame rounds up, float noise below the half included', () => {
    // 0.35 * 10 is 3.4999999999999996 in floating point: still the half, so 4 frames.
    assert.equal(buildTimeline(three, [0.35, 0, 0], 10).totalFrames, 4);
    assert.equal(buildTimeline(three, [0.15, 0, 0], 10).totalFrames, 2);
    // A sum that drifted below the half: 0.05 + 0.05 + 0.35 is 13.499999999999998 frames at 30 fps.
    const t = buildTimeline(three, [0.05, 0.05, 0.35], 30);
    assert.deepEqual([t.scenes[0]!.endFrame, t.scenes[1]!.endFrame, t.totalFrames], [2, 3, 14]);
    // Noise above a whole frame is removed too (0.1 * 30 = 3.0000000000000004).
    assert.equal(buildTimeline(three, [0.1, 0, 0], 30).totalFrames, 3);
  });
  test('wrong inputs are programming errors', () => {
    assert.throws(() => buildTimeline(three, [1, 1], 30), RangeError);
    assert.throws(() => buildTimeline(three, [1, 1, -1], 30), RangeError);
    assert.throws(() => buildTimeline(three, [1, 1, 1], 0), RangeError);
  });
});

describe('catalogues', () => {
  test('fonts: the bundled families, Inter first and default', () => {
    assert.equal(DEFAULT_FONT, 'Inter');
    assert.deepEqual(
      [...FONT_FAMILIES],
      [
        'Inter',
        'Roboto',
        'Open Sans',
        'Lato',
        'Montserrat',
        'Merriweather',
        'Playfair Display',
        'Oswald',
        'Source Code Pro',
        'Noto Sans',
      ],
    );
  });
  test('every bundled family has its @fontsource package installed', async () => {
    for (const family of FONT_FAMILIES) {
      const pkg = `@fontsource/${family.toLowerCase().replace(/ /g, '-')}`;
      await assert.doesNotReject(import(`${pkg}/package.json`, { with: { type: 'json' } }), pkg);
    }
  });
  test('voice ids are unique and well formed', () => {
    assert.equal(new Set(VOICES.map((v) => v.id)).size, VOICES.length);
    for (const v of VOICES) assert.match(v.id, /^(espeak|openai)-[a-z]+(-[a-z]+)?$/);
    for (const id of [
      'espeak-en-us',
      'espeak-en-gb',
      'espeak-de-de',
      'espeak-fr-fr',
      'espeak-es-es',
      'espeak-it-it',
      'espeak-pt-br',
      'espeak-nl-nl',
      'openai-alloy',
      'openai-echo',
      'openai-fable',
      'openai-onyx',
      'openai-nova',
      'openai-shimmer',
    ])
      assert.ok(
        VOICES.some((v) => v.id === id),
        id,
      );
  });
  const defaults: [string, string][] = [
    ['en-US', 'espeak-en-us'],
    ['en-GB', 'espeak-en-gb'],
    ['en', 'espeak-en-us'],
    ['en-AU', 'espeak-en-us'],
    ['de', 'espeak-de-de'],
    ['pt-BR', 'espeak-pt-br'],
    ['pt-PT', 'espeak-pt-pt'],
    ['fr-CA', 'espeak-fr-fr'],
    ['xx-YY', 'espeak-en-us'],
  ];
  for (const [language, id] of defaults)
    test(`defaultVoiceFor(${language}) = ${id}`, () => assert.equal(defaultVoiceFor(language).id, id));
});

describe('espeak voices exist in the installed espeak-ng', () => {
  test('every espeak engineVoice is listed by `espeak-ng --voices`', async () => {
    const { execFileSync } = await import('node:child_process');
    const listed = new Set(
      execFileSync('espeak-ng', ['--voices'], { encoding: 'utf8' })
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/)[1])
        .filter(Boolean),
    );
    for (const v of VOICES.filter((x) => x.engine === 'espeak'))
      assert.ok(listed.has(v.engineVoice), `${v.id}: ${v.engineVoice}`);
  });
});
