import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { minimalDoc } from './fixtures.ts';
import { MAX_FINDINGS, resolveMovie, validateMovie, validateTemplate } from './index.ts';

type Json = Record<string, unknown>;

const TEN_MB = 'x'.repeat(10 * 1024 * 1024);

function deep(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

function withText(field: string, value: unknown): Json {
  const d = minimalDoc();
  ((d.scenes as Json[])[0]!.elements as Json[])[0]![field] = value;
  return d;
}

/**
 * Runs all three entry points and checks each returns a well-formed result quickly: within 2 s
 * in the best of up to three tries, so that a machine busy with other work (the test suite runs
 * two files at once, some start a control plane) does not fail it, while work that grows faster
 * than the input (what this guards against) is slow on every try.
 */
function survive(input: unknown, values?: unknown): void {
  for (const run of [() => validateMovie(input), () => validateTemplate(input), () => resolveMovie(input, values)]) {
    let r: ReturnType<typeof run> | undefined;
    let ms = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 3 && ms >= 2000; attempt++) {
      const t0 = performance.now();
      r = run();
      ms = Math.min(ms, performance.now() - t0);
    }
    assert.ok(r && ms < 2000, `took ${ms} ms at best of three`);
    if (!r.ok) {
      assert.ok(r.findings.length >= 1 && r.findings.length <= MAX_FINDINGS);
      for (const f of r.findings) {
        assert.equal(typeof f.code, 'string');
        assert.ok(f.message.length < 2000, 'messages stay short');
        assert.ok(f.path.length < 2000, 'paths stay short');
      }
    }
  }
}

describe('hostile inputs never throw and give bounded findings', () => {
  const cases: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['array', [minimalDoc()]],
    ['number 1e308', 1e308],
    ['NaN', Number.NaN],
    ['string', 'v1'],
    ['empty object', {}],
    ['10 MB schema tag', { schema: TEN_MB }],
    ['10 MB text', withText('text', TEN_MB)],
    ['10 MB id', withText('id', TEN_MB)],
    ['10 MB font', withText('font', TEN_MB)],
    ['10 MB colour', withText('color', TEN_MB)],
    ['10 MB placeholder-ish text', withText('text', `{{${TEN_MB}}}`)],
    ['10 MB key', { ...minimalDoc(), [TEN_MB]: 1 }],
    ['deep nesting under an unknown key', { ...minimalDoc(), extra: deep(100_000) }],
    ['deep nesting where a position goes', withText('position', deep(100_000))],
    [
      'deep nesting as a variable default',
      { ...minimalDoc(), variables: { a: { type: 'string', default: deep(50_000) } } },
    ],
    // 100k keys is about what the API's 1 MiB body limit can carry.
    [
      '100k unknown keys',
      { ...minimalDoc(), ...Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])) },
    ],
    ['100k scenes', { schema: 'v1', preset: '1:1', scenes: Array.from({ length: 100_000 }, () => ({})) }],
    ['huge numbers everywhere', withText('fontSize', 1e308)],
    ['negative zero and tiny numbers', withText('fontSize', -0)],
    ['infinity from a JavaScript caller', withText('fontSize', Number.POSITIVE_INFINITY)],
    ['prototype keys', JSON.parse('{"schema":"v1","__proto__":{"x":1},"constructor":1,"toString":2,"scenes":[]}')],
    [
      'variables named like prototype members',
      JSON.parse(
        '{"schema":"v1","preset":"1:1","variables":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"scenes":[{"id":"s","duration":1,"elements":[{"id":"t","type":"text","text":"{{constructor}}"}]}]}',
      ),
    ],
    ['5000 placeholders in one string', withText('text', '{{a}}'.repeat(1000))],
    ['10 MB lang', withText('lang', TEN_MB)],
    ['deep nesting where a stroke goes', withText('stroke', deep(100_000))],
    ['deep nesting inside autoFit', withText('autoFit', { minFontSize: deep(100_000) })],
    ['huge shadow numbers', withText('shadow', { offsetX: 1e308, offsetY: -1e308, blur: Number.NaN })],
  ];
  for (const [name, input] of cases) test(name, () => survive(input));

  test('hostile request values', () => {
    const d = { ...minimalDoc(), variables: { a: { type: 'string' } } };
    for (const values of [
      null,
      1,
      'x',
      [],
      deep(10_000),
      { a: TEN_MB },
      JSON.parse('{"__proto__":{"a":1}}'),
      { a: deep(1000) },
    ])
      survive(d, values);
  });

  test('any JSON value, anywhere in a document', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom(
          'text',
          'fontSize',
          'position',
          'animation',
          'id',
          'type',
          'start',
          'stroke',
          'shadow',
          'background',
          'autoFit',
          'maxLines',
          'lang',
        ),
        (value, field) => {
          survive(value);
          survive(withText(field, value));
          survive({ ...minimalDoc(), scenes: value });
          survive({ ...minimalDoc(), variables: value }, value);
        },
      ),
      { numRuns: 300 },
    );
  });
});
