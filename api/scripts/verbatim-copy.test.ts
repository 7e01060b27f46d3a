import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findVerbatimRun, indexSource, VERBATIM_RUN_WORDS } from './verbatim-copy.ts';

const SOURCE =
  'Honey bees communicate the location of flowers through a waggle dance performed inside the dark hive. ' +
  'The angle of the dance relative to vertical encodes the direction of the food source relative to the sun.';

test('the run length is the issue’s 12 words', () => {
  assert.equal(VERBATIM_RUN_WORDS, 12);
});

const cases: [string, string, number | null][] = [
  [
    'exactly 12 copied words',
    'Did you know? Honey bees communicate the location of flowers through a waggle dance performed, amazing.',
    12,
  ],
  [
    '11 copied words are allowed',
    'Honey bees communicate the location of flowers through a waggle dance, they say.',
    null,
  ],
  [
    'case and punctuation do not hide a copy',
    'HONEY-BEES communicate; the LOCATION of flowers, through a "waggle" dance performed!',
    12,
  ],
  ['a longer run is measured in full', SOURCE.slice(0, 104), 16],
  ['a copy across the sentence boundary', 'the dark hive. The angle of the dance relative to vertical encodes it', 12],
  [
    'paraphrase passes',
    'Bees tell each other where flowers are by dancing in the hive, using the sun as a compass.',
    null,
  ],
  ['short text', 'Honey bees', null],
];
for (const [name, text, expected] of cases) {
  test(`verbatim: ${name}`, () => {
    const run = findVerbatimRun(indexSource(SOURCE), text);
    assert.equal(run?.words ?? null, expected);
  });
}

test('the excerpt names the copied words, normalised', () => {
  const run = findVerbatimRun(
    indexSource(SOURCE),
    'The angle of the dance relative to vertical encodes the direction of the food',
  );
  assert.equal(run?.excerpt, 'the angle of the dance relative to vertical encodes the direction of the food');
  assert.equal(run?.words, 14);
});

test('languages without spaces are compared by words', () => {
  const ja = '蜂は花の場所を仲間に伝えるために巣の中で八の字のダンスを踊ります。太陽の方向が基準になります。';
  const copied = findVerbatimRun(indexSource(ja, 12, 'ja'), `実は、${ja.slice(0, 30)}`, 'ja');
  assert.ok(copied && copied.words >= 12, `expected a copy, got ${JSON.stringify(copied)}`);
  assert.equal(findVerbatimRun(indexSource(ja, 12, 'ja'), '蜂はダンスで仲間に花の場所を教えます。', 'ja'), null);
});
