import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { levenshtein, normalizeForOcr, similarity } from './ocr.ts';

describe('similarity: how close OCR came to the text, 0..1', () => {
  it('is 1 for identical texts, and for texts that differ only in whitespace', () => {
    assert.equal(similarity('Café déjà vu', 'Café déjà vu'), 1);
    assert.equal(similarity('A long sentence that should wrap', 'A long sentence\nthat should  wrap '), 1);
    assert.equal(similarity('今日はとても良い天気です', '今日は とても 良い 天気です'), 1);
  });

  it('costs one character per substitution, insertion or deletion, over the longer length', () => {
    assert.equal(similarity('façade', 'facade'), 1 - 1 / 6);
    assert.equal(similarity('abcd', 'abcde'), 1 - 1 / 5);
    assert.equal(similarity('abcde', 'abde'), 1 - 1 / 5);
    assert.equal(similarity('abc', 'xyz'), 0);
    assert.equal(levenshtein([...'kitten'], [...'sitting']), 3);
    assert.equal(levenshtein([], [...'abc']), 3);
  });

  it('treats two empty texts as identical and an empty reading as nothing read', () => {
    assert.equal(similarity('', ''), 1);
    assert.equal(similarity(' \n', ''), 1);
    assert.equal(similarity('text', ''), 0);
    assert.equal(similarity('', 'noise'), 0);
  });

  it('counts code points: a surrogate pair is one character', () => {
    // U+20BB7 𠮷 (a CJK Extension B ideograph) and an emoji are two UTF-16 units each.
    assert.equal(normalizeForOcr('𠮷野家').length, 3);
    assert.equal(similarity('𠮷野家', '吉野家'), 1 - 1 / 3);
    assert.equal(similarity('ok 😀', 'ok 😃'), 1 - 1 / 3);
  });

  it('compares under NFKC: composed and decomposed accents, fullwidth forms, ligatures, bidi marks', () => {
    assert.equal(similarity('déjà', 'de\u0301ja\u0300'), 1);
    assert.equal(similarity('今天，我们去。', '今天,我们去。'), 1);
    assert.equal(similarity('first', '\uFB01rst'), 1);
    assert.equal(similarity('العربية', '\u200Fالعربية\u200F'), 1);
  });

  it('scores a reading of half the sentence at about one half', () => {
    const s = 'A long sentence that should wrap onto a second line of text here';
    const half = similarity(s, 'A long sentence that should wrap');
    assert.ok(half > 0.45 && half < 0.55, `${half}`);
  });
});
