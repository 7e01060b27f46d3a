import assert from 'node:assert/strict';
import { test } from 'node:test';
import { narration } from '../../test/fakes/script-drafts.ts';
import { countWords, words } from './words.ts';

const cases: [string, string, string | undefined, string[]][] = [
  ['punctuation and case', 'Hello, WORLD! It’s fine.', undefined, ['hello', 'world', 'its', 'fine']],
  ['numbers count as words', 'In 1999 there were 3 ships.', undefined, ['in', '1999', 'there', 'were', '3', 'ships']],
  ['Japanese without spaces', '灯台は海を見守る。', 'ja', ['灯台', 'は', '海', 'を', '見守る']],
  ['only punctuation', '— … !', undefined, []],
];
for (const [name, text, locale, expected] of cases) {
  test(`words: ${name}`, () => assert.deepEqual(words(text, locale), expected));
}

test('long texts are segmented in chunks without splitting words, in linear time', () => {
  const scenes = Array.from({ length: 50 }, (_, i) => narration(500, i));
  const joined = scenes.join('\n');
  const t0 = performance.now();
  const all = words(joined, 'en');
  const ms = performance.now() - t0;
  assert.deepEqual(
    all,
    scenes.flatMap((s) => words(s, 'en')),
  );
  assert.equal(all.length, 25_000);
  // One unchunked segmentation of this text took about 35 s; chunked it takes a fraction of one.
  assert.ok(ms < 5000, `segmenting 25,000 words took ${Math.round(ms)} ms`);
  const ja = '古い灯台は崖の端に立っていて、海を見守ってきました。'.repeat(500);
  assert.equal(countWords(ja, 'ja'), countWords('古い灯台は崖の端に立っていて、海を見守ってきました。', 'ja') * 500);
});
