import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BIG_DOC_VALUES, bigDoc } from './fixtures.ts';
import { coerceVariable, resolveMovie, type VariableType, validateTemplate } from './index.ts';
import { interpolate, scanPlaceholders } from './placeholders.ts';

type Json = Record<string, unknown>;

/** One scene, one text element whose fields the case fills; variables as given. */
function doc(variables: Json | undefined, text: Json, sceneExtra: Json = {}): Json {
  const d: Json = {
    schema: 'v1',
    preset: '16:9',
    scenes: [{ id: 's1', duration: 5, ...sceneExtra, elements: [{ id: 't1', type: 'text', text: 'Hi', ...text }] }],
  };
  if (variables) d.variables = variables;
  return d;
}

const firstEl = (m: unknown) => ((m as Json).scenes as Json[])[0]!.elements as Json[];

describe('placeholder scanning', () => {
  const cases: [string, string[] | undefined, string | undefined][] = [
    ['plain text', undefined, undefined],
    ['{{name}}', ['name'], 'name'],
    ['{{ name }}', ['name'], 'name'],
    ['Hello {{name}}!', ['name'], undefined],
    ['{{a}}{{b}} {{a}}', ['a', 'b', 'a'], undefined],
    ['{{{{name}}}}', [], undefined],
    ['{{{{name}}}} and {{x}}', ['x'], undefined],
    ['{{not-a-name}}', undefined, undefined],
    ['{{1x}}', undefined, undefined],
    ['{{ }}', undefined, undefined],
    ['{name}', undefined, undefined],
  ];
  for (const [input, refs, whole] of cases) {
    test(JSON.stringify(input), () => {
      const scan = scanPlaceholders(input);
      assert.deepEqual(scan?.refs, refs);
      assert.equal(scan?.whole, whole);
    });
  }
  test('interpolation keeps escapes literal', () => {
    assert.equal(
      interpolate('a {{x}} b {{{{x}}}} c {{{{ y }}}}', () => 'X'),
      'a X b {{x}} c {{ y }}',
    );
  });
});

describe('lossless coercion', () => {
  const cases: [VariableType, unknown, unknown, string[]?][] = [
    ['number', 42, 42],
    ['number', '42', 42],
    ['number', '-1.5e3', -1500],
    ['number', '4x', undefined],
    ['number', '', undefined],
    ['number', ' 42', undefined],
    ['number', '0x10', undefined],
    ['number', 'Infinity', undefined],
    ['number', true, undefined],
    ['boolean', true, true],
    ['boolean', 'false', false],
    ['boolean', 'yes', undefined],
    ['boolean', 1, undefined],
    ['string', 'x', 'x'],
    ['string', 7, '7'],
    ['string', null, undefined],
    ['string', { a: 1 }, undefined],
    ['url', 'https://example.com/a?b=c', 'https://example.com/a?b=c'],
    ['url', 'ftp://example.com', undefined],
    ['url', 'example.com', undefined],
    ['url', 'javascript:alert(1)', undefined],
    ['color', '#abc', '#abc'],
    ['color', 'tomato', 'tomato'],
    ['color', 'Tomato', undefined],
    ['enum', 'b', 'b', ['a', 'b']],
    ['enum', 'c', undefined, ['a', 'b']],
    ['enum', 2, '2', ['1', '2']],
  ];
  for (const [type, raw, expected, options] of cases) {
    test(`${type} ${JSON.stringify(raw)}`, () => {
      const r = coerceVariable({ type, options }, raw);
      if (expected === undefined) assert.equal(r.ok, false, JSON.stringify(r));
      else assert.deepEqual(r, { ok: true, value: expected });
    });
  }
});

describe('resolveMovie', () => {
  test('a whole placeholder takes the typed value; inside text it is interpolated', () => {
    const d = doc(
      { size: { type: 'number' }, name: { type: 'string', default: 'World' }, on: { type: 'boolean' } },
      { text: 'Hello {{name}}, {{size}}px', fontSize: '{{size}}' },
    );
    const r = resolveMovie(d, { size: '42' });
    assert.ok(r.ok, JSON.stringify(r));
    const el = firstEl(r.value)[0]!;
    assert.equal(el.fontSize, 42);
    assert.equal(el.text, 'Hello World, 42px');
  });

  test('a typed value in a text-only field lands as text', () => {
    const r = resolveMovie(doc({ n: { type: 'number', default: 7 } }, { text: '{{n}}' }));
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(firstEl(r.value)[0]!.text, '7');
  });

  test('duration "voice" or a number from variables', () => {
    const d = {
      schema: 'v1',
      preset: '1:1',
      variables: { d: { type: 'string' } },
      scenes: [{ id: 's', duration: '{{d}}', elements: [{ id: 'v', type: 'voice', text: 'hi' }] }],
    };
    const voice = resolveMovie(d, { d: 'voice' });
    assert.ok(voice.ok, JSON.stringify(voice));
    assert.equal(voice.value.scenes[0]!.duration, 'voice');
  });

  test('escapes become literal braces and are not references', () => {
    const r = resolveMovie(doc(undefined, { text: 'Use {{{{name}}}} in templates' }));
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(firstEl(r.value)[0]!.text, 'Use {{name}} in templates');
  });

  test('the input document is not modified', () => {
    const d = doc({ name: { type: 'string' } }, { text: 'Hi {{name}}' });
    const before = JSON.stringify(d);
    const r = resolveMovie(d, { name: 'Ada' });
    assert.ok(r.ok);
    assert.equal(JSON.stringify(d), before);
    assert.notEqual(r.value, d);
  });

  test('a document without placeholders resolves to itself', () => {
    const d = doc(undefined, {});
    const r = resolveMovie(d);
    assert.ok(r.ok && r.value === d);
  });

  test('request values win over defaults; defaults fill the rest', () => {
    const d = doc(
      { a: { type: 'string', default: 'A' }, b: { type: 'string', default: 'B' } },
      { text: '{{a}}-{{b}}' },
    );
    const r = resolveMovie(d, { b: 'x' });
    assert.ok(r.ok);
    assert.equal(firstEl(r.value)[0]!.text, 'A-x');
  });

  test('a 500-scene template resolves', () => {
    const r = resolveMovie(bigDoc(500, { placeholders: true }), BIG_DOC_VALUES);
    assert.ok(r.ok, JSON.stringify(r).slice(0, 400));
    const el = firstEl(r.value)[0]!;
    assert.equal(el.text, 'Chapter 0: The Story for Ada');
    assert.equal(el.fontSize, 64);
    assert.equal(el.color, '#ffcc00');
  });

  const failures: [string, Json, unknown, [string, string][]][] = [
    [
      'undeclared variable at its first reference',
      doc(undefined, { text: 'a {{who}}', color: '{{who}}' }),
      undefined,
      [['VARIABLE_UNDECLARED', 'scenes[0].elements[0].text']],
    ],
    [
      'first reference follows the order keys are written in, not the schema order',
      {
        schema: 'v1',
        preset: '1:1',
        variables: { c: { type: 'color' } },
        scenes: [{ id: 's', duration: 1, elements: [{ color: '{{c}}', id: 't', type: 'text', text: 'a {{c}}' }] }],
      },
      { c: 'nope' },
      [['VARIABLE_TYPE_MISMATCH', 'scenes[0].elements[0].color']],
    ],
    [
      'missing value and no default at the first reference',
      doc({ c: { type: 'color' } }, { text: 'x', color: '{{c}}' }, { background: '{{c}}' }),
      {},
      [['VARIABLE_MISSING', 'scenes[0].background']],
    ],
    [
      'type mismatch at the first reference',
      doc({ size: { type: 'number' } }, { text: 'x {{size}}', fontSize: '{{size}}' }),
      { size: '4x' },
      [['VARIABLE_TYPE_MISMATCH', 'scenes[0].elements[0].text']],
    ],
    [
      'enum value outside the options',
      doc({ m: { type: 'enum', options: ['left', 'right'] } }, { text: 'x', align: '{{m}}' }),
      { m: 'middle' },
      [['VARIABLE_TYPE_MISMATCH', 'scenes[0].elements[0].align']],
    ],
    [
      'url variable must be absolute http(s)',
      doc({ u: { type: 'url' } }, { text: '{{u}}' }),
      { u: '/relative' },
      [['VARIABLE_TYPE_MISMATCH', 'scenes[0].elements[0].text']],
    ],
    [
      'a value for an undeclared variable is a typo',
      doc({ name: { type: 'string', default: 'x' } }, { text: '{{name}}' }),
      { nmae: 'Ada' },
      [['VALIDATION_ERROR', 'variables.nmae']],
    ],
    ['values must be an object', doc(undefined, {}), ['a'], [['VALIDATION_ERROR', 'variables']]],
    [
      'resolved value out of range is checked after resolution',
      doc({ w: { type: 'number' } }, { fontWeight: '{{w}}' }),
      { w: 950 },
      [['VALIDATION_ERROR', 'scenes[0].elements[0].fontWeight']],
    ],
    [
      'resolved duplicate ids are found after resolution',
      {
        schema: 'v1',
        preset: '1:1',
        variables: { a: { type: 'string' }, b: { type: 'string' } },
        scenes: [
          { id: '{{a}}', duration: 1, elements: [{ id: 'x', type: 'text', text: 'x' }] },
          { id: '{{b}}', duration: 1, elements: [{ id: 'y', type: 'text', text: 'y' }] },
        ],
      },
      { a: 'same', b: 'same' },
      [['SCENE_ID_DUPLICATE', 'scenes[1].id']],
    ],
    [
      'a string variable cannot make a number field',
      doc({ s: { type: 'string' } }, { fontSize: '{{s}}' }),
      { s: 'big' },
      [['SCHEMA_INVALID', 'scenes[0].elements[0].fontSize']],
    ],
    [
      'placeholders are not interpreted in the schema tag or element type',
      { ...doc({ t: { type: 'string' } }, { type: '{{t}}' }) },
      { t: 'text' },
      [['SCHEMA_INVALID', 'scenes[0].elements[0].type']],
    ],
    [
      'structural findings and value findings together',
      doc({ n: { type: 'number' } }, { text: '{{n}}', bogus: 1 }),
      { n: 'x' },
      [
        ['VARIABLE_TYPE_MISMATCH', 'scenes[0].elements[0].text'],
        ['SCHEMA_INVALID', 'scenes[0].elements[0].bogus'],
      ],
    ],
  ];
  for (const [name, d, values, expected] of failures) {
    test(name, () => {
      const r = resolveMovie(d, values);
      assert.ok(!r.ok, 'expected findings');
      assert.deepEqual(
        r.findings.map((f) => [f.code, f.path]),
        expected,
        JSON.stringify(r.findings, null, 1),
      );
    });
  }
});

describe('validateTemplate', () => {
  test('placeholders are allowed in any scalar position; the manifest mirrors variables', () => {
    const variables = {
      size: { type: 'number', default: 10 },
      w: { type: 'number' },
      pos: { type: 'string', default: 'center' },
      show: { type: 'boolean', description: 'unused' },
    };
    const d = { ...doc(variables, { fontSize: '{{size}}', fontWeight: '{{w}}', position: '{{pos}}' }), fps: '{{w}}' };
    const r = validateTemplate(d);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value.manifest, variables);
    assert.deepEqual(r.warnings, [
      {
        code: 'VARIABLE_UNUSED',
        message: 'variable "show" is declared but no {{show}} placeholder uses it',
        path: 'variables.show',
      },
    ]);
  });

  test('no variables: an empty manifest and no warnings', () => {
    const r = validateTemplate(doc(undefined, {}));
    assert.deepEqual(r, { ok: true, value: { manifest: {} }, warnings: [] });
  });

  test('structure is still checked around placeholders', () => {
    const r = validateTemplate(doc({ a: { type: 'string' } }, { text: '{{a}}', fontWeight: 950, extra: '{{a}}' }));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.findings.map((f) => [f.code, f.path]),
      [
        ['VALIDATION_ERROR', 'scenes[0].elements[0].fontWeight'],
        ['SCHEMA_INVALID', 'scenes[0].elements[0].extra'],
      ],
    );
  });

  test('undeclared variables: one finding per name, at its first reference', () => {
    const r = validateTemplate(doc(undefined, { text: '{{a}} {{b}}', color: '{{a}}' }, { background: '{{c}}' }));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.findings.map((f) => [f.code, f.path, f.message.slice(0, 5)]),
      // The scene's background key comes before its elements in the document.
      [
        ['VARIABLE_UNDECLARED', 'scenes[0].background', '{{c}}'],
        ['VARIABLE_UNDECLARED', 'scenes[0].elements[0].text', '{{a}}'],
        ['VARIABLE_UNDECLARED', 'scenes[0].elements[0].text', '{{b}}'],
      ],
    );
  });
});

describe('expansion past what any field takes', () => {
  const value = 'x'.repeat(5000);
  const variables = { a: { type: 'string', default: value } };

  const imageDoc = (src: string) => ({
    schema: 'v1',
    preset: '16:9',
    variables,
    scenes: [{ id: 's', duration: 5, elements: [{ id: 'i', type: 'image', src }] }],
  });

  test('a placeholder repeated 110,000 times in one field is a VALIDATION_ERROR at that field, never built', () => {
    // 0.55 MB of document (a data: URI field takes 1,000,000 characters) asking for a string of
    // 550 million characters: it threw RangeError (a 500) while the string was built.
    const r = resolveMovie(imageDoc(`data:image/png;base64,${'{{a}}'.repeat(110_000)}`));
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(
      r.findings.map((f) => [f.code, f.path]),
      [['VALIDATION_ERROR', 'scenes[0].elements[0].src']],
    );
    assert.match(r.findings[0]!.message, /expand this field to 550000022 characters; no field takes more than 1000000/);
  });

  test('fields that each fit but add up to more than the total are refused at the field that passes it', () => {
    const src = `data:image/png;base64,${'{{a}}'.repeat(190)}`; // 950,022 characters: under the field limit
    const elements = Array.from({ length: 5 }, (_, i) => ({ id: `i${i}`, type: 'image', src }));
    const r = resolveMovie({ schema: 'v1', preset: '16:9', variables, scenes: [{ id: 's', duration: 5, elements }] });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(
      r.findings.map((f) => [f.code, f.path]),
      [['VALIDATION_ERROR', 'scenes[0].elements[4].src']],
    );
  });

  test('an expansion within the limits resolves, and then meets the field’s own limit', () => {
    const r = resolveMovie(doc(variables, { text: '{{a}}{{a}}' }));
    assert.equal(r.ok, false, 'text takes at most 5000 characters');
    if (r.ok) return;
    assert.deepEqual(
      r.findings.map((f) => f.path),
      ['scenes[0].elements[0].text'],
    );
    assert.equal(resolveMovie(doc(variables, { text: '{{a}}' })).ok, true);
  });
});
