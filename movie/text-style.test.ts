/**
 * Text styling of text and subtitles elements: stroke, shadow, box, letterSpacing, lineHeight,
 * align, maxWidth, maxHeight, maxLines, autoFit and lang. Their bounds, their cross-field rules
 * (with the exact code and path), placeholders in them, and the JSON Schema export of them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  DEFAULT_BOX_PADDING_EM,
  DEFAULT_SHADOW,
  ELLIPSIS,
  movieJsonSchema,
  resolveMovie,
  type SubtitlesElement,
  TEXT_DEFAULT_FONT_SIZE,
  type TextElement,
  validateMovie,
  validateTemplate,
} from './index.ts';

type Json = Record<string, unknown>;

/** A document with one text element (scene 0) and one subtitles element (scene 1). */
function doc(text: Json = {}, subtitles: Json = {}, variables?: Json): Json {
  return {
    schema: 'v1',
    preset: '16:9',
    ...(variables ? { variables } : {}),
    scenes: [
      { id: 's1', duration: 3, elements: [{ id: 't', type: 'text', text: 'Hello world', ...text }] },
      {
        id: 's2',
        duration: 'voice',
        elements: [
          { id: 'v', type: 'voice', text: 'Some words to say' },
          { id: 'c', type: 'subtitles', ...subtitles },
        ],
      },
    ],
  };
}

const TEXT = 'scenes[0].elements[0]';
const SUBS = 'scenes[1].elements[1]';

function findings(r: ReturnType<typeof validateMovie>): [string, string][] {
  return r.ok ? [] : r.findings.map((f) => [f.code, f.path]);
}

describe('text styling: valid values', () => {
  const cases: [string, Json, Json][] = [
    ['none of them (a document valid before stays valid)', {}, {}],
    ['subtitles backgroundColor alone, as before', {}, { backgroundColor: '#00000080' }],
    [
      'the thinnest and the widest stroke',
      { stroke: { width: 0.01, color: 'white' } },
      { stroke: { width: 50, color: '#000000ff' } },
    ],
    ['an empty shadow is the default shadow', { shadow: {} }, { shadow: {} }],
    [
      'shadow at its bounds',
      { shadow: { color: 'transparent', offsetX: -200, offsetY: 200, blur: 0 } },
      { shadow: { offsetX: 200, offsetY: -200, blur: 100 } },
    ],
    [
      'box at its bounds',
      { background: { color: '#fff', padding: 0, radius: 500 } },
      { background: { color: 'black', padding: 500, radius: 0 } },
    ],
    ['letterSpacing at its bounds', { letterSpacing: -50 }, { letterSpacing: 200 }],
    ['lineHeight, align and maxWidth on subtitles', {}, { lineHeight: 0.5, align: 'right', maxWidth: 1 }],
    ['maxLines at its bounds', { maxLines: 100 }, { maxLines: 1 }],
    ['maxHeight at its bounds', { maxHeight: 1 }, {}],
    ['maxHeight at its upper bound', { maxHeight: 8192 }, {}],
    ['autoFit with maxHeight', { maxHeight: 300, autoFit: { minFontSize: 12 } }, {}],
    ['autoFit with maxLines', { maxLines: 2, autoFit: { minFontSize: 12 } }, {}],
    [
      'autoFit minFontSize equal to the default fontSize',
      { maxLines: 1, autoFit: { minFontSize: TEXT_DEFAULT_FONT_SIZE } },
      {},
    ],
    ['autoFit minFontSize equal to fontSize', { fontSize: 20.5, maxLines: 1, autoFit: { minFontSize: 20.5 } }, {}],
    ['lang: ja and ko', { lang: 'ja' }, { lang: 'ko' }],
    ['lang: zh-CN and ar', { lang: 'zh-CN' }, { lang: 'ar' }],
    ['lang: script and region subtags, any case', { lang: 'zh-Hant-TW' }, { lang: 'YUE-hk' }],
  ];
  for (const [name, text, subtitles] of cases) {
    test(name, () => {
      const d = doc(text, subtitles);
      assert.deepEqual(findings(validateMovie(d)), []);
      assert.ok(validateTemplate(d).ok);
      const r = resolveMovie(d);
      assert.ok(r.ok && r.value === d, 'a document without placeholders resolves to itself');
    });
  }

  test('the lang pattern refuses what is not a language tag', () => {
    for (const lang of ['j', 'japanese', 'zh_CN', 'zh-', '-ja', 'ja-a', 'ja-abcdefghi', 'ja CN', '日本語', '']) {
      const r = validateMovie(doc({ lang }));
      assert.deepEqual(findings(r), [['VALIDATION_ERROR', `${TEXT}.lang`]], lang);
    }
  });
});

describe('text styling: cross-field rules', () => {
  test('autoFit without maxHeight or maxLines: at autoFit, saying what to add', () => {
    const r = validateMovie(doc({ autoFit: { minFontSize: 20 } }));
    assert.deepEqual(findings(r), [['VALIDATION_ERROR', `${TEXT}.autoFit`]]);
    assert.ok(!r.ok);
    assert.match(r.findings[0]!.message, /give maxHeight or maxLines/);
  });

  test('minFontSize above fontSize: at autoFit.minFontSize, with both sizes', () => {
    const r = validateMovie(doc({ fontSize: 40, maxHeight: 200, autoFit: { minFontSize: 48 } }));
    assert.deepEqual(findings(r), [['VALIDATION_ERROR', `${TEXT}.autoFit.minFontSize`]]);
    assert.ok(!r.ok);
    assert.match(r.findings[0]!.message, /minFontSize \(48\) is above the fontSize it shrinks from \(40\)/);
  });

  test('minFontSize above the default fontSize says it is the default', () => {
    const r = validateMovie(doc({ maxLines: 3, autoFit: { minFontSize: 65 } }));
    assert.deepEqual(findings(r), [['VALIDATION_ERROR', `${TEXT}.autoFit.minFontSize`]]);
    assert.ok(!r.ok);
    assert.match(r.findings[0]!.message, /\(64, the default\)/);
  });

  test('an invalid fontSize or minFontSize is reported once, by its own bounds', () => {
    assert.deepEqual(findings(validateMovie(doc({ fontSize: 0.5, maxLines: 2, autoFit: { minFontSize: 1 } }))), [
      ['VALIDATION_ERROR', `${TEXT}.fontSize`],
    ]);
    assert.deepEqual(findings(validateMovie(doc({ fontSize: 40, maxLines: 2, autoFit: { minFontSize: 2000 } }))), [
      ['VALIDATION_ERROR', `${TEXT}.autoFit.minFontSize`],
    ]);
    assert.deepEqual(findings(validateMovie(doc({ fontSize: '40', maxLines: 2, autoFit: { minFontSize: 50 } }))), [
      ['SCHEMA_INVALID', `${TEXT}.fontSize`],
    ]);
    assert.deepEqual(findings(validateMovie(doc({ maxLines: 2, autoFit: 12 }))), [
      ['SCHEMA_INVALID', `${TEXT}.autoFit`],
    ]);
  });

  test('subtitles with backgroundColor and background: at backgroundColor, naming both', () => {
    const r = validateMovie(doc({}, { background: { color: '#000' }, backgroundColor: '#111' }));
    assert.deepEqual(findings(r), [['VALIDATION_ERROR', `${SUBS}.backgroundColor`]]);
    assert.ok(!r.ok);
    assert.match(r.findings[0]!.message, /either backgroundColor or background, not both/);
  });

  test('a text element has no backgroundColor (background is its only box)', () => {
    assert.deepEqual(findings(validateMovie(doc({ backgroundColor: '#000' }))), [
      ['SCHEMA_INVALID', `${TEXT}.backgroundColor`],
    ]);
  });

  test('fields of text only are unknown on subtitles', () => {
    assert.deepEqual(findings(validateMovie(doc({}, { maxHeight: 100, autoFit: { minFontSize: 10 } }))), [
      ['SCHEMA_INVALID', `${SUBS}.maxHeight`],
      ['SCHEMA_INVALID', `${SUBS}.autoFit`],
    ]);
  });

  test('bound messages name the field and the range', () => {
    const r = validateMovie(doc({ stroke: { width: 60, color: 'red' }, letterSpacing: 300, maxLines: 0.5 }));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.findings.map((f) => f.message),
      [
        'width must be a number greater than 0 and at most 50; got 60',
        'letterSpacing must be a number from -50 to 200; got 300',
        'maxLines must be an integer from 1 to 100; got 0.5',
      ],
    );
  });
});

describe('text styling: placeholders', () => {
  const variables = {
    w: { type: 'number', default: 3 },
    accent: { type: 'color', default: 'gold' },
    spacing: { type: 'number', default: 2 },
    lines: { type: 'number', default: 2 },
    size: { type: 'number', default: 72 },
    min: { type: 'number', default: 30 },
    lang: { type: 'string', default: 'ja' },
  };
  const templated = () =>
    doc(
      {
        fontSize: '{{size}}',
        stroke: { width: '{{w}}', color: '{{accent}}' },
        shadow: { offsetY: '{{w}}', color: '{{accent}}' },
        background: { color: '{{accent}}', padding: '{{w}}' },
        letterSpacing: '{{spacing}}',
        maxLines: '{{lines}}',
        autoFit: { minFontSize: '{{min}}' },
        lang: '{{lang}}',
      },
      { maxLines: '{{lines}}', letterSpacing: '{{ spacing }}', lineHeight: '{{w}}' },
      variables,
    );

  test('a template with placeholders in every kind of styling field is valid', () => {
    const r = validateTemplate(templated());
    assert.ok(r.ok, JSON.stringify(!r.ok && r.findings));
    assert.deepEqual(r.warnings, []);
  });

  test('whole placeholders resolve to typed values', () => {
    const r = resolveMovie(templated(), { spacing: '-1.5' });
    assert.ok(r.ok, JSON.stringify(!r.ok && r.findings));
    const text = r.value.scenes[0]!.elements[0] as TextElement;
    assert.equal(text.fontSize, 72);
    assert.deepEqual(text.stroke, { width: 3, color: 'gold' });
    assert.deepEqual(text.shadow, { offsetY: 3, color: 'gold' });
    assert.deepEqual(text.background, { color: 'gold', padding: 3 });
    assert.equal(text.letterSpacing, -1.5);
    assert.equal(text.maxLines, 2);
    assert.deepEqual(text.autoFit, { minFontSize: 30 });
    assert.equal(text.lang, 'ja');
    const subs = r.value.scenes[1]!.elements[1] as SubtitlesElement;
    assert.equal(subs.maxLines, 2);
    assert.equal(subs.lineHeight, 3);
  });

  test('the rules are checked once resolved, at the field the value lands in', () => {
    assert.deepEqual(findings(resolveMovie(templated(), { min: 80 })), [
      ['VALIDATION_ERROR', `${TEXT}.autoFit.minFontSize`],
    ]);
    assert.deepEqual(findings(resolveMovie(templated(), { size: 20 })), [
      ['VALIDATION_ERROR', `${TEXT}.autoFit.minFontSize`],
    ]);
    assert.deepEqual(findings(resolveMovie(templated(), { lines: 2.5 })), [
      ['VALIDATION_ERROR', `${TEXT}.maxLines`],
      ['VALIDATION_ERROR', `${SUBS}.maxLines`],
    ]);
    assert.deepEqual(findings(resolveMovie(templated(), { w: 51 })), [
      ['VALIDATION_ERROR', `${TEXT}.stroke.width`],
      ['VALIDATION_ERROR', `${SUBS}.lineHeight`],
    ]);
    assert.deepEqual(findings(resolveMovie(templated(), { lang: 'Japanese please' })), [
      ['VALIDATION_ERROR', `${TEXT}.lang`],
    ]);
  });

  test('a placeholder counts as the field being there (autoFit with maxHeight from a variable)', () => {
    const d = doc({ maxHeight: '{{h}}', autoFit: { minFontSize: 10 } }, {}, { h: { type: 'number', default: 200 } });
    assert.ok(validateTemplate(d).ok);
    assert.ok(resolveMovie(d).ok);
  });

  test('the conflicting box fields are reported in a template too', () => {
    const d = doc({}, { backgroundColor: '{{c}}', background: { color: '#000' } }, { c: { type: 'color' } });
    const r = validateTemplate(d);
    assert.deepEqual(r.ok ? [] : r.findings.map((f) => [f.code, f.path]), [
      ['VALIDATION_ERROR', `${SUBS}.backgroundColor`],
    ]);
  });
});

describe('text styling: one definition, exported', () => {
  const schema = movieJsonSchema('v1') as unknown as {
    properties: { scenes: { items: { properties: { elements: { items: { anyOf: Json[] } } } } } };
  };
  const members = schema.properties.scenes.items.properties.elements.items.anyOf;
  const of = (type: string) =>
    (members.find((m) => (m.properties as { type: { const: string } }).type.const === type) as Json)
      .properties as Record<string, Json>;
  const text = of('text');
  const subs = of('subtitles');

  test('text and subtitles share stroke, shadow, background, letterSpacing, align, maxWidth bounds and lang', () => {
    for (const field of ['stroke', 'shadow', 'background', 'letterSpacing', 'align', 'lang'])
      assert.deepEqual(subs[field], text[field], field);
    const { description: _a, ...textWidth } = text.maxWidth!;
    const { description: _b, ...subsWidth } = subs.maxWidth!;
    assert.deepEqual(subsWidth, textWidth);
    const { default: textLh, ...textLineHeight } = text.lineHeight!;
    const { default: subsLh, ...subsLineHeight } = subs.lineHeight!;
    assert.deepEqual(subsLineHeight, textLineHeight);
    assert.deepEqual([textLh, subsLh], [1.2, 1.3], 'captions keep the line height they always had');
  });

  test('the defaults the docs give are the schema defaults', () => {
    const shadow = text.shadow!.properties as Record<string, Json>;
    assert.deepEqual(
      Object.fromEntries(Object.entries(shadow).map(([k, v]) => [k, v.default])),
      DEFAULT_SHADOW as unknown as Json,
    );
    assert.equal(subs.maxLines!.default, 1);
    assert.equal(text.maxLines!.default, undefined, 'a text element has no line limit by default');
    assert.equal(DEFAULT_BOX_PADDING_EM, 0.3);
    assert.equal(ELLIPSIS, '…');
    const docs = readFileSync(new URL('../docs/movie.md', import.meta.url), 'utf8');
    for (const phrase of [
      '`#000000b3`',
      '`offsetX` 0 and `offsetY` 4',
      '`blur` 8',
      '0.3 × `fontSize`',
      'never a silent cut',
      '"…" (U+2026)',
      '1.3 on subtitles',
    ])
      assert.ok(docs.includes(phrase), `docs/movie.md says ${phrase}`);
  });

  test('a second validator (Ajv) agrees on the new fields', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const check = ajv.compile(movieJsonSchema('v1'));
    const good = doc(
      {
        stroke: { width: 2, color: 'black' },
        shadow: {},
        background: { color: '#00000088', radius: 4 },
        letterSpacing: 1,
        maxHeight: 300,
        maxLines: 3,
        autoFit: { minFontSize: 20 },
        lang: 'zh-CN',
      },
      { stroke: { width: 1, color: 'red' }, lineHeight: 1.5, align: 'left', maxWidth: 800, maxLines: 2, lang: 'ko' },
    );
    assert.ok(validateMovie(good).ok);
    assert.ok(check(good), JSON.stringify(check.errors?.slice(0, 3)));
    const bad: Json[] = [
      doc({ stroke: { width: 2 } }),
      doc({ stroke: { width: 0, color: 'red' } }),
      doc({ shadow: { spread: 1 } }),
      doc({ background: { padding: 2 } }),
      doc({ letterSpacing: -51 }),
      doc({ maxLines: 1.5 }),
      doc({ autoFit: { minFontSize: 0 } }),
      doc({ lang: 'zh_CN' }),
      doc({}, { maxHeight: 10 }),
    ];
    for (const d of bad) {
      assert.equal(validateMovie(d).ok, false, JSON.stringify(d.scenes));
      assert.equal(check(d), false, JSON.stringify(d.scenes));
    }
  });

  test('the Static types carry the fields', () => {
    const text: TextElement = {
      id: 't',
      type: 'text',
      text: 'x',
      stroke: { width: 1, color: 'red' },
      shadow: { blur: 2 },
      background: { color: 'black', padding: 4, radius: 2 },
      letterSpacing: 1,
      maxHeight: 10,
      maxLines: 1,
      autoFit: { minFontSize: 8 },
      lang: 'ja',
    };
    const subs: SubtitlesElement = {
      id: 's',
      type: 'subtitles',
      align: 'left',
      lineHeight: 1,
      maxLines: 2,
      lang: 'ko',
    };
    assert.ok(text && subs);
  });
});

describe('docs/movie.md: its JSON examples are valid', () => {
  const md = readFileSync(new URL('../docs/movie.md', import.meta.url), 'utf8');
  const blocks = [...md.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Json);
  test('there are whole documents and element snippets', () => {
    assert.ok(blocks.some((b) => b.schema === 'v1'));
    assert.ok(blocks.some((b) => b.type === 'text' && b.autoFit));
    assert.ok(blocks.some((b) => b.type === 'subtitles' && b.background));
  });
  blocks.forEach((block, i) => {
    test(`example ${i + 1} (${block.schema ? 'document' : `${String(block.type)} element`})`, () => {
      // Text and subtitles snippets take the place of the test document's own; any other element
      // (an image with keyframes, a shape) is the one element of a scene long enough for it.
      const d = block.schema
        ? block
        : block.type === 'subtitles'
          ? doc({}, block)
          : block.type === 'text'
            ? doc(block)
            : { schema: 'v1', preset: '16:9', scenes: [{ id: 's1', duration: 60, elements: [block] }] };
      // A template's variables may have no default: it is checked as a template.
      const r = d.variables ? validateTemplate(d) : resolveMovie(d);
      assert.deepEqual(r.ok ? [] : r.findings, []);
    });
  });
});
