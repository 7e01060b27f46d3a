import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeDraft, narration } from '../../test/fakes/script-drafts.ts';
import { applyVisualStyle, checkContext, checkDraft, enforcedConstraints, finaliseDraft } from './constraints.ts';
import type { Draft } from './draft.ts';
import type { ScriptRequest } from './schemas.ts';
import { validateScriptRequest } from './validate-script-request.ts';

function request(body: Record<string, unknown> = {}): ScriptRequest {
  const r = validateScriptRequest({ brief: 'A film about a lighthouse', ...body });
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
}

const SOURCE =
  'Lighthouses were first built by the ancient Egyptians and the most famous of them stood on the island of Pharos ' +
  'near Alexandria where it guided sailors for more than a thousand years before earthquakes destroyed it.';

describe('checkDraft', () => {
  const cases: { name: string; body?: Record<string, unknown>; draft: Draft; expect: [string, string, RegExp][] }[] = [
    { name: 'a good default draft', draft: makeDraft(), expect: [] },
    { name: '10 and 14 scenes pass the default range', draft: makeDraft({ scenes: 10 }), expect: [] },
    {
      name: '9 scenes miss the default range',
      draft: makeDraft({ scenes: 9 }),
      expect: [['sceneCount', 'scenes', /has 9 scenes; it must have between 10 and 14/]],
    },
    {
      name: '15 scenes miss the default range',
      draft: makeDraft({ scenes: 15 }),
      expect: [['sceneCount', 'scenes', /has 15 scenes/]],
    },
    {
      name: 'exact scene count',
      body: { sceneCount: 3 },
      draft: makeDraft({ scenes: 4 }),
      expect: [['sceneCount', 'scenes', /has 4 scenes; it must have exactly 3/]],
    },
    {
      name: 'words per scene, both bounds',
      body: { sceneCount: 3, wordsPerScene: { min: 15, max: 25 } },
      draft: makeDraft({ scenes: 3, words: (i) => [14, 20, 26][i] as number }),
      expect: [
        ['wordsPerScene', 'scenes[0].voiceText', /scene 1 narration has 14 words; it must have between 15 and 25/],
        ['wordsPerScene', 'scenes[2].voiceText', /scene 3 narration has 26 words/],
      ],
    },
    {
      name: 'words per scene, max only, at the bound',
      body: { sceneCount: 2, wordsPerScene: { max: 20 } },
      draft: makeDraft({ scenes: 2, words: 20 }),
      expect: [],
    },
    {
      name: 'words per scene, min only',
      body: { sceneCount: 2, wordsPerScene: { min: 40 } },
      draft: makeDraft({ scenes: 2, words: (i) => (i === 0 ? 40 : 39) }),
      expect: [['wordsPerScene', 'scenes[1].voiceText', /has 39 words; it must have at least 40/]],
    },
    {
      name: 'narration too long for a voice element',
      body: { sceneCount: 1 },
      draft: makeDraft({ scenes: 1, voiceText: () => `${narration(20)} ${'word '.repeat(1000)}` }),
      expect: [['format', 'scenes[0].voiceText', /scene 1 narration has \d+ characters; keep it under 5000/]],
    },
    {
      name: 'missing image prompt',
      body: { sceneCount: 2 },
      draft: makeDraft({ scenes: 2, imagePrompt: (i) => (i === 1 ? null : 'a cliff') }),
      expect: [['imagePrompt', 'scenes[1].imagePrompt', /scene 2 has no imagePrompt/]],
    },
    {
      name: 'image prompts not required',
      body: { sceneCount: 2, includeImagePrompts: false },
      draft: makeDraft({ scenes: 2, imagePrompt: null }),
      expect: [],
    },
    {
      name: 'missing title and description',
      body: { sceneCount: 2 },
      draft: makeDraft({ scenes: 2, title: null, description: null }),
      expect: [
        ['title', 'title', /title is missing/],
        ['description', 'description', /description is missing/],
      ],
    },
    {
      name: 'title and description not asked for',
      body: { sceneCount: 2, includeTitle: false, includeDescription: false },
      draft: makeDraft({ scenes: 2, title: null, description: null }),
      expect: [],
    },
    {
      name: 'wrong language',
      body: { sceneCount: 3, language: 'Spanish' },
      draft: makeDraft({ scenes: 3 }),
      expect: [['language', '', /wrong language: it is not written in Spanish: it reads as English/]],
    },
    {
      name: 'verbatim copy of the source',
      body: { sceneCount: 2, sourceMaterial: SOURCE },
      draft: makeDraft({
        scenes: 2,
        voiceText: (i) =>
          i === 1
            ? 'Long ago the most famous of them stood on the island of Pharos near Alexandria, where it guided ships.'
            : narration(20),
      }),
      expect: [
        ['verbatim', 'scenes[1].voiceText', /copies 16 consecutive words of the source material \("the most famous/],
      ],
    },
    {
      name: 'a paraphrase of the source passes',
      body: { sceneCount: 2, sourceMaterial: SOURCE },
      draft: makeDraft({ scenes: 2 }),
      expect: [],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = checkDraft(c.draft, checkContext(request(c.body)));
      assert.equal(got.length, c.expect.length, JSON.stringify(got, null, 2));
      c.expect.forEach(([constraint, path, message], i) => {
        assert.equal(got[i]?.constraint, constraint);
        assert.equal(got[i]?.path, path);
        assert.match(got[i]?.message ?? '', message);
      });
    });
  }
});

test('enforcedConstraints echoes what the checker enforces', () => {
  assert.deepEqual(enforcedConstraints(request()), {
    sceneCount: { min: 10, max: 14 },
    wordsPerScene: null,
    imagePrompts: true,
    visualStyle: null,
    title: true,
    description: true,
    language: 'English',
    maxVerbatimWords: null,
  });
  const c = enforcedConstraints(
    request({ sceneCount: 5, wordsPerScene: { max: 30 }, visualStyle: 'ink', sourceMaterial: 'x', language: 'de' }),
  );
  assert.deepEqual(c.sceneCount, { min: 5, max: 5 });
  assert.deepEqual(c.wordsPerScene, { min: null, max: 30 });
  assert.equal(c.visualStyle, 'ink');
  assert.equal(c.language, 'de');
  assert.equal(c.maxVerbatimWords, 11);
  assert.equal(enforcedConstraints(request({ visualStyle: 'ink', includeImagePrompts: false })).visualStyle, null);
});

describe('applyVisualStyle', () => {
  const cases: [string, string | null, string][] = [
    ['A cliff at dusk', null, 'A cliff at dusk'],
    ['A cliff at dusk', 'watercolour, soft light', 'A cliff at dusk. Style: watercolour, soft light'],
    ['A cliff at dusk.', 'watercolour', 'A cliff at dusk. Style: watercolour'],
    ['A cliff at dusk, watercolour, soft light', 'watercolour, soft light', 'A cliff at dusk, watercolour, soft light'],
    ['Soft light on a cliff in Watercolour', 'watercolour, soft light', 'Soft light on a cliff in Watercolour'],
  ];
  for (const [prompt, style, expected] of cases) {
    test(`${prompt} + ${style}`, () => assert.equal(applyVisualStyle(prompt, style), expected));
  }
});

test('finaliseDraft numbers scenes, applies the style and nulls what was not asked for', () => {
  const draft = makeDraft({ scenes: 2, imagePrompt: (i) => `cliff ${i}` });
  const styled = finaliseDraft(draft, enforcedConstraints(request({ visualStyle: 'charcoal sketch' })));
  assert.deepEqual(
    styled.scenes.map((s) => [s.index, s.imagePrompt]),
    [
      [1, 'cliff 0. Style: charcoal sketch'],
      [2, 'cliff 1. Style: charcoal sketch'],
    ],
  );
  assert.equal(styled.title, draft.title);
  const bare = finaliseDraft(
    draft,
    enforcedConstraints(request({ includeImagePrompts: false, includeTitle: false, includeDescription: false })),
  );
  assert.equal(bare.title, null);
  assert.equal(bare.description, null);
  assert.deepEqual(
    bare.scenes.map((s) => s.imagePrompt),
    [null, null],
  );
});
