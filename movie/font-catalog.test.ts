import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FALLBACK_FAMILIES, familyFiles, uncoveredCharacters } from './font-catalog.ts';
import { FONT_FAMILIES } from './fonts.ts';
import { checkTemplateDocument } from './template-check.ts';

describe('font catalogue', () => {
  it('reads every bundled and fallback family: subsets with ranges, weights, Latin first', () => {
    for (const name of [...FONT_FAMILIES, ...FALLBACK_FAMILIES]) {
      const f = familyFiles(name);
      assert.ok(f.subsets.length > 0 && f.weights.length > 0, name);
      if (name !== 'Noto Color Emoji') assert.ok(f.weights.includes(400) && f.weights.includes(700), name);
    }
    assert.equal(familyFiles('Lato').subsets[0]!.name, 'latin');
    assert.ok(familyFiles('Noto Sans JP').subsets.length > 100, 'a CJK font comes in numbered slices');
  });

  it('finds the characters no bundled font draws', () => {
    assert.deepEqual(uncoveredCharacters('Hello, Привет, Γειά, Việt, 日本語, 中文, 한국어, مرحبا, नमस्ते 😀👍🏽'), []);
    assert.deepEqual(
      uncoveredCharacters('สวัสดี hello'),
      [...'สวัสดี'].filter((c, i, a) => a.indexOf(c) === i),
    );
    assert.deepEqual(uncoveredCharacters('a\u200db\ufe0f\n'), [], 'joiners, selectors and controls draw nothing');
    assert.deepEqual(uncoveredCharacters('שלום', 'Lato'), [...'שלום']);
  });
});

describe('template warnings: TEXT_GLYPH_MISSING', () => {
  const doc = (elements: unknown[], variables?: unknown) => ({
    schema: 'v1',
    preset: '16:9',
    ...(variables ? { variables } : {}),
    scenes: [{ id: 's', duration: 2, elements }],
  });
  const warnings = (d: unknown) => {
    const r = checkTemplateDocument(d);
    assert.ok(r.ok, JSON.stringify(r));
    return r.warnings.map((w) => [w.code, w.path, w.message] as const);
  };

  it('warns at the text field, naming the characters, and never for what a fallback draws', () => {
    const w = warnings(doc([{ id: 't', type: 'text', text: 'Thai: ก ข {{name}}' }], { name: { type: 'string' } }));
    assert.equal(w.length, 1);
    assert.equal(w[0]![0], 'TEXT_GLYPH_MISSING');
    assert.equal(w[0]![1], 'scenes[0].elements[0].text');
    assert.match(w[0]![2], /"ก" \(U\+0E01\), "ข" \(U\+0E02\)/);
    assert.deepEqual(warnings(doc([{ id: 't', type: 'text', text: '日本語 مرحبا 😀', font: 'Oswald' }])), []);
  });

  it("warns at a voice's text when subtitles in its scene show it", () => {
    const voice = { id: 'v', type: 'voice', text: 'สวัสดี' };
    assert.deepEqual(warnings(doc([voice])), [], 'no captions, nothing drawn');
    const w = warnings(doc([voice, { id: 'c', type: 'subtitles' }]));
    assert.deepEqual(
      w.map((x) => x[1]),
      ['scenes[0].elements[0].text'],
    );
    assert.match(w[0]![2], /shown by the subtitles at scenes\[0\]\.elements\[1\]/);
  });

  it('leaves fonts by URL and placeholders to the render', () => {
    const url = { id: 't', type: 'text', text: 'ก', font: 'https://fonts.example/thai.woff2' };
    assert.deepEqual(warnings(doc([url])), []);
    const placeholder = { id: 't', type: 'text', text: 'ก', font: '{{font}}' };
    assert.deepEqual(warnings(doc([placeholder], { font: { type: 'string', default: 'Inter' } })), []);
  });
});
