import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateScriptRequest } from './validate-script-request.ts';

describe('validateScriptRequest', () => {
  test('applies every default to a minimal body', () => {
    const r = validateScriptRequest({ brief: 'A film about bees' });
    assert.ok(r.ok);
    assert.deepEqual(r.value, {
      brief: 'A film about bees',
      sourceMaterial: null,
      sceneCount: null,
      targetDurationSec: null,
      language: 'English',
      tone: null,
      audience: null,
      structure: null,
      visualStyle: null,
      wordsPerScene: null,
      includeImagePrompts: true,
      includeTitle: true,
      includeDescription: true,
    });
  });

  test('keeps every supplied field at its bounds', () => {
    const body = {
      brief: 'b'.repeat(2000),
      sourceMaterial: 's'.repeat(30000),
      sceneCount: 50,
      targetDurationSec: 3600,
      language: 'l'.repeat(50),
      tone: 't'.repeat(200),
      audience: 'a'.repeat(200),
      structure: 'x'.repeat(2000),
      visualStyle: 'v'.repeat(500),
      wordsPerScene: { min: 500, max: 500 },
      includeImagePrompts: false,
      includeTitle: false,
      includeDescription: false,
    };
    const r = validateScriptRequest(body);
    assert.ok(r.ok);
    assert.equal(r.value.sceneCount, 50);
    assert.deepEqual(r.value.wordsPerScene, { min: 500, max: 500 });
    assert.equal(r.value.includeTitle, false);
    const low = validateScriptRequest({ brief: 'b', sceneCount: 1, targetDurationSec: 5, wordsPerScene: { max: 1 } });
    assert.ok(low.ok);
    assert.deepEqual(low.value.wordsPerScene, { min: null, max: 1 });
  });

  const bad: [string, unknown, string][] = [
    ['missing brief', {}, 'brief'],
    ['empty brief', { brief: '' }, 'brief'],
    ['blank brief', { brief: '   ' }, 'brief'],
    ['long brief', { brief: 'b'.repeat(2001) }, 'brief'],
    ['empty sourceMaterial', { brief: 'b', sourceMaterial: '' }, 'sourceMaterial'],
    ['long sourceMaterial', { brief: 'b', sourceMaterial: 's'.repeat(30001) }, 'sourceMaterial'],
    ['sceneCount 0', { brief: 'b', sceneCount: 0 }, 'sceneCount'],
    ['sceneCount 51', { brief: 'b', sceneCount: 51 }, 'sceneCount'],
    ['fractional sceneCount', { brief: 'b', sceneCount: 2.5 }, 'sceneCount'],
    ['targetDurationSec 4.9', { brief: 'b', targetDurationSec: 4.9 }, 'targetDurationSec'],
    ['targetDurationSec 3601', { brief: 'b', targetDurationSec: 3601 }, 'targetDurationSec'],
    ['empty language', { brief: 'b', language: '' }, 'language'],
    ['long language', { brief: 'b', language: 'l'.repeat(51) }, 'language'],
    ['long tone', { brief: 'b', tone: 't'.repeat(201) }, 'tone'],
    ['long audience', { brief: 'b', audience: 'a'.repeat(201) }, 'audience'],
    ['long structure', { brief: 'b', structure: 's'.repeat(2001) }, 'structure'],
    ['long visualStyle', { brief: 'b', visualStyle: 'v'.repeat(501) }, 'visualStyle'],
    ['empty wordsPerScene', { brief: 'b', wordsPerScene: {} }, 'wordsPerScene'],
    ['wordsPerScene.min 0', { brief: 'b', wordsPerScene: { min: 0 } }, 'wordsPerScene.min'],
    ['wordsPerScene.max 501', { brief: 'b', wordsPerScene: { max: 501 } }, 'wordsPerScene.max'],
    ['fractional wordsPerScene.max', { brief: 'b', wordsPerScene: { max: 10.5 } }, 'wordsPerScene.max'],
    ['min above max', { brief: 'b', wordsPerScene: { min: 30, max: 20 } }, 'wordsPerScene.min'],
    ['unknown wordsPerScene key', { brief: 'b', wordsPerScene: { min: 1, avg: 3 } }, 'wordsPerScene.avg'],
    ['unknown top-level field', { brief: 'b', scenes: 3 }, 'scenes'],
    ['string boolean', { brief: 'b', includeTitle: 'yes' }, 'includeTitle'],
    ['array body', [], ''],
    ['null body', null, ''],
  ];
  for (const [name, body, path] of bad) {
    test(`rejects ${name} with VALIDATION_ERROR at "${path}"`, () => {
      const r = validateScriptRequest(body);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.findings[0]?.code, 'VALIDATION_ERROR');
      assert.equal(r.findings[0]?.path, path);
    });
  }

  test('reports every bad field at once, one finding per path', () => {
    const r = validateScriptRequest({ sceneCount: 99, tone: '', extra: true });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.findings.map((f) => f.path).sort(), ['brief', 'extra', 'sceneCount', 'tone']);
  });
});

test('finding paths are in the spec path form, unusual keys quoted (movie/paths.ts formatPath)', () => {
  const r = validateScriptRequest({
    brief: 'A film about bees',
    wordsPerScene: { min: 'many', 'max words': 3 },
    'a/b': 1,
    'a.b': 2,
    '0': 3,
    '': 4,
  });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.deepEqual(r.findings.map((f) => f.path).sort(), [
    '[""]',
    '["0"]',
    '["a.b"]',
    '["a/b"]',
    'wordsPerScene.min',
    'wordsPerScene["max words"]',
  ]);
});
