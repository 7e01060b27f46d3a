import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { EXPORT_COMMAND, expectedArtefacts } from './export-schema.ts';
import { bigDoc, minimalDoc } from './fixtures.ts';
import { movieJsonSchema, SCHEMA_VERSIONS, validateMovie } from './index.ts';

describe('JSON Schema export', () => {
  test('the committed schemas/*.json and docs/movie.md reference are current', () => {
    for (const { path, content } of expectedArtefacts()) {
      let committed: string | undefined;
      try {
        committed = readFileSync(path, 'utf8');
      } catch {
        committed = undefined;
      }
      assert.ok(committed === content, `${path} is out of date; regenerate it with: ${EXPORT_COMMAND}`);
    }
  });

  test('it is JSON Schema 2020-12 without our internal annotations', () => {
    const schema = movieJsonSchema('v1');
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.ok(!JSON.stringify(schema).includes('"x-fw"'));
    assert.deepEqual(SCHEMA_VERSIONS, ['v1']);
  });

  // A second, independent validator agrees with ours on structure: what we accept it accepts, and
  // what we reject as structurally wrong it rejects too.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const check = ajv.compile(movieJsonSchema('v1'));
  const valid: [string, unknown][] = [
    ['minimal', minimalDoc()],
    ['100 rich scenes', bigDoc(100)],
  ];
  for (const [name, doc] of valid) {
    test(`accepts a valid document: ${name}`, () => {
      assert.ok(validateMovie(doc).ok);
      assert.ok(check(doc), JSON.stringify(check.errors?.slice(0, 3)));
    });
  }
  const invalid: [string, Record<string, unknown>][] = [
    ['unknown root key', { ...minimalDoc(), extra: 1 }],
    ['bad fps', { ...minimalDoc(), fps: 0 }],
    [
      'bad colour',
      {
        ...minimalDoc(),
        scenes: [{ id: 's', duration: 1, background: 'nope', elements: [{ id: 't', type: 'text', text: 'x' }] }],
      },
    ],
    [
      'unknown element type',
      { ...minimalDoc(), scenes: [{ id: 's', duration: 1, elements: [{ id: 't', type: 'video' }] }] },
    ],
    [
      'image with relative src',
      { ...minimalDoc(), scenes: [{ id: 's', duration: 1, elements: [{ id: 'i', type: 'image', src: 'a.png' }] }] },
    ],
    [
      'unknown voice',
      {
        ...minimalDoc(),
        scenes: [{ id: 's', duration: 1, elements: [{ id: 'v', type: 'voice', text: 'x', voiceId: 'nope' }] }],
      },
    ],
    ['odd width', { schema: 'v1', width: 101, height: 100, scenes: minimalDoc().scenes }],
  ];
  for (const [name, doc] of invalid) {
    test(`rejects: ${name}`, () => {
      assert.equal(validateMovie(doc).ok, false);
      assert.equal(check(doc), false);
    });
  }
});
