import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatPath, pointerSegments, type Segment } from './paths.ts';

/** Unusual keys, each with the path formatPath gives it at the root and below `x`. */
const KEYS: { name: string; key: string; root: string; below: string }[] = [
  { name: 'a plain name', key: 'src', root: 'src', below: 'x.src' },
  { name: 'underscore and dollar', key: '_$a1', root: '_$a1', below: 'x._$a1' },
  { name: 'a dot', key: 'a.b', root: '["a.b"]', below: 'x["a.b"]' },
  { name: 'brackets', key: 'a[0]', root: '["a[0]"]', below: 'x["a[0]"]' },
  { name: 'a double quote', key: 'say "hi"', root: '["say \\"hi\\""]', below: 'x["say \\"hi\\""]' },
  { name: 'a single quote', key: "it's", root: '["it\'s"]', below: 'x["it\'s"]' },
  { name: 'a backslash', key: 'a\\b', root: '["a\\\\b"]', below: 'x["a\\\\b"]' },
  { name: 'spaces', key: 'odd key', root: '["odd key"]', below: 'x["odd key"]' },
  { name: 'a hyphen', key: 'font-size', root: '["font-size"]', below: 'x["font-size"]' },
  { name: 'a slash and a tilde', key: 'a/b~c', root: '["a/b~c"]', below: 'x["a/b~c"]' },
  { name: 'digits only (a key, not an index)', key: '0', root: '["0"]', below: 'x["0"]' },
  { name: 'a leading digit', key: '1st', root: '["1st"]', below: 'x["1st"]' },
  { name: 'the empty string', key: '', root: '[""]', below: 'x[""]' },
  { name: 'non-ASCII letters', key: 'ключ', root: '["ключ"]', below: 'x["ключ"]' },
  { name: 'an emoji', key: '🎬', root: '["🎬"]', below: 'x["🎬"]' },
  { name: 'a newline', key: 'a\nb', root: '["a\\nb"]', below: 'x["a\\nb"]' },
  { name: 'a NUL', key: 'a\u0000', root: '["a\\u0000"]', below: 'x["a\\u0000"]' },
  {
    name: 'a long plain name (cut, quoted)',
    key: 'k'.repeat(101),
    root: `["${'k'.repeat(100)}…"]`,
    below: `x["${'k'.repeat(100)}…"]`,
  },
];

test('formatPath: the spec form, unusual keys JSON-quoted in brackets', () => {
  for (const c of KEYS) {
    assert.equal(formatPath([c.key]), c.root, c.name);
    assert.equal(formatPath(['x', c.key]), c.below, c.name);
  }
  const cases: [Segment[], string][] = [
    [[], ''],
    [['scenes', 2, 'elements', 0, 'src'], 'scenes[2].elements[0].src'],
    [[0], '[0]'],
    [[0, 'id'], '[0].id'],
    [['variables', 'brand.color'], 'variables["brand.color"]'],
    [['variables', 'name'], 'variables.name'],
  ];
  for (const [segments, want] of cases) assert.equal(formatPath(segments), want, JSON.stringify(segments));
  // Not one path for two fields: the index 0 and the key "0", the key "a.b" and the keys a then b.
  assert.notEqual(formatPath([0]), formatPath(['0']));
  assert.notEqual(formatPath(['a.b']), formatPath(['a', 'b']));
});

test('pointerSegments: a JSON Pointer read as segments, indexes told from keys by the document', () => {
  const cases: { pointer: string; root?: unknown; want: Segment[] }[] = [
    { pointer: '', want: [] },
    { pointer: '/', want: [''] },
    { pointer: '/movie/scenes/2/id', want: ['movie', 'scenes', 2, 'id'] },
    { pointer: '/a~1b/c~0d/~01', want: ['a/b', 'c~d', '~1'] },
    { pointer: '/007', want: ['007'] },
    // Without the document, digits are read as an index...
    { pointer: '/variables/0', want: ['variables', 0] },
    // ...with it, as the key they are in an object and the index they are in an array.
    { pointer: '/variables/0', root: { variables: { '0': 1 } }, want: ['variables', '0'] },
    { pointer: '/items/0/1', root: { items: [{ '1': true }] }, want: ['items', 0, '1'] },
    { pointer: '/items/1', root: { items: [] }, want: ['items', 1] },
    // Past what the document holds, digits are an index again; an inherited name is no key.
    { pointer: '/missing/0', root: {}, want: ['missing', 0] },
    { pointer: '/__proto__/0', root: {}, want: ['__proto__', 0] },
  ];
  for (const c of cases) assert.deepEqual(pointerSegments(c.pointer, c.root), c.want, c.pointer);
});

test('every unusual key survives a pointer: the same path from segments and from their pointer', () => {
  const toPointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const c of KEYS) {
    const root = { x: { [c.key]: 1 } };
    assert.equal(formatPath(pointerSegments(`/x/${toPointer(c.key)}`, root)), c.below, c.name);
  }
});
