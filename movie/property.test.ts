import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  ANIMATION_PRESETS,
  buildTimeline,
  CSS_COLOR_NAMES,
  FONT_FAMILIES,
  resolveMovie,
  VOICES,
  validateMovie,
  validateTemplate,
} from './index.ts';

type Json = Record<string, unknown>;

// ---- generators of valid documents -------------------------------------------------------------

const color = fc.oneof(
  fc.constantFrom(...CSS_COLOR_NAMES),
  fc
    .tuple(
      fc.constantFrom(3, 6, 8),
      fc.array(fc.constantFrom(...'0123456789abcdefABCDEF'), { minLength: 8, maxLength: 8 }),
    )
    .map(([n, digits]) => `#${digits.slice(0, n).join('')}`),
);
const text = fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /\S/.test(s) && !s.includes('{{'));
const position = fc.oneof(
  fc.constant('center'),
  fc.record({ x: fc.integer({ min: -8192, max: 8192 }), y: fc.double({ min: -8192, max: 8192, noNaN: true }) }),
);
const animation = fc.record(
  { preset: fc.constantFrom(...ANIMATION_PRESETS), duration: fc.double({ min: 0.01, max: 10, noNaN: true }) },
  { requiredKeys: ['preset'] },
);
const weight = fc.integer({ min: 1, max: 9 }).map((n) => n * 100);

/** Text styling shared by text and subtitles elements, every field optional. */
const styling = {
  stroke: fc.record({ width: fc.double({ min: 0.01, max: 50, noNaN: true }), color }),
  shadow: fc.record(
    {
      color,
      offsetX: fc.double({ min: -200, max: 200, noNaN: true }),
      offsetY: fc.integer({ min: -200, max: 200 }),
      blur: fc.double({ min: 0, max: 100, noNaN: true }),
    },
    { requiredKeys: [] },
  ),
  background: fc.record(
    { color, padding: fc.double({ min: 0, max: 500, noNaN: true }), radius: fc.integer({ min: 0, max: 500 }) },
    { requiredKeys: ['color'] },
  ),
  letterSpacing: fc.double({ min: -50, max: 200, noNaN: true }),
  maxLines: fc.integer({ min: 1, max: 100 }),
  lang: fc.constantFrom('ja', 'ko', 'zh-CN', 'zh-Hant-TW', 'ar', 'en', 'pt-BR'),
};

/** Optional timing that fits in a scene of `sceneSec` seconds (or any timing in a voice scene). */
function timing(sceneSec: number | undefined) {
  const max = sceneSec ?? 60;
  return fc
    .tuple(fc.double({ min: 0, max: max * 0.5, noNaN: true }), fc.double({ min: 0.01, max: max * 0.5, noNaN: true }))
    .map(([start, duration]) => ({ start, duration }));
}

const textElement = (sceneSec: number | undefined) =>
  fc
    .tuple(
      fc.record(
        {
          text,
          font: fc.constantFrom(...FONT_FAMILIES),
          fontSize: fc.integer({ min: 1, max: 1000 }),
          fontWeight: weight,
          color,
          align: fc.constantFrom('left', 'center', 'right'),
          maxWidth: fc.integer({ min: 1, max: 8192 }),
          lineHeight: fc.double({ min: 0.5, max: 3, noNaN: true }),
          position,
          animation,
          ...styling,
          maxHeight: fc.integer({ min: 1, max: 8192 }),
          autoFit: fc.record({ minFontSize: fc.double({ min: 1, max: 1000, noNaN: true }) }),
        },
        { requiredKeys: ['text'] },
      ),
      fc.option(timing(sceneSec), { nil: undefined }),
    )
    .map(([e, t]) => {
      // autoFit shrinks from fontSize (default 64) into maxHeight or maxLines: keep it consistent
      // (a new object: fast-check may map the same generated value again while shrinking).
      if (!e.autoFit) return { type: 'text', ...e, ...t };
      const fit = { minFontSize: Math.min(e.autoFit.minFontSize, e.fontSize ?? 64) };
      const lines = e.maxHeight === undefined && e.maxLines === undefined ? { maxLines: 2 } : {};
      return { type: 'text', ...e, autoFit: fit, ...lines, ...t };
    });

const imageElement = (sceneSec: number | undefined) =>
  fc
    .tuple(
      fc.record(
        {
          src: fc.webUrl({ validSchemes: ['http', 'https'] }).filter((u) => u.length <= 2048),
          width: fc.integer({ min: 1, max: 8192 }),
          height: fc.integer({ min: 1, max: 8192 }),
          fit: fc.constantFrom('contain', 'cover', 'fill'),
          position,
          animation,
        },
        { requiredKeys: ['src'] },
      ),
      fc.option(timing(sceneSec), { nil: undefined }),
    )
    .map(([e, t]) => ({ type: 'image', ...e, ...t }));

const voiceElement = fc
  .record(
    { text, voiceId: fc.constantFrom(...VOICES.map((v) => v.id)), start: fc.double({ min: 0, max: 1, noNaN: true }) },
    { requiredKeys: ['text'] },
  )
  .map((e) => {
    const voice = VOICES.find((v) => v.id === e.voiceId);
    const language = voice && voice.language !== 'multi' ? voice.language : undefined;
    return { type: 'voice', ...e, ...(language ? { language } : {}) };
  });

const subtitlesElement = fc
  .record({
    font: fc.constantFrom(...FONT_FAMILIES),
    fontSize: fc.integer({ min: 1, max: 1000 }),
    color,
    highlightColor: color,
    backgroundColor: color,
    wordsPerLine: fc.integer({ min: 1, max: 20 }),
    position,
  })
  .chain((e) =>
    fc
      .record(
        {
          ...styling,
          lineHeight: fc.double({ min: 0.5, max: 3, noNaN: true }),
          align: fc.constantFrom('left', 'center', 'right'),
          maxWidth: fc.integer({ min: 1, max: 8192 }),
        },
        { requiredKeys: [] },
      )
      .map((style) => {
        // backgroundColor is shorthand for background: one or the other.
        const { backgroundColor, ...rest } = e;
        return { type: 'subtitles', ...rest, ...(style.background ? {} : { backgroundColor }), ...style };
      }),
  );

const scene = fc.oneof(
  fc.double({ min: 0.5, max: 3600, noNaN: true }).chain((sec) =>
    fc
      .record({
        duration: fc.constant(sec),
        background: fc.option(color, { nil: undefined }),
        elements: fc.array(fc.oneof(textElement(sec), imageElement(sec)), { minLength: 1, maxLength: 4 }),
      })
      .map((s) => (s.background === undefined ? { duration: s.duration, elements: s.elements } : s)),
  ),
  fc
    .tuple(voiceElement, fc.array(fc.oneof(textElement(undefined), subtitlesElement), { maxLength: 3 }))
    .map(([voice, rest]) => ({ duration: 'voice', elements: [voice, ...rest] })),
);

const size = fc.oneof(
  fc.record(
    {
      preset: fc.constantFrom('16:9', '9:16', '1:1', '4:5', '4:3'),
      resolution: fc.constantFrom('480p', '720p', '1080p', '1440p', '2160p'),
    },
    { requiredKeys: ['preset'] },
  ),
  fc.record({
    width: fc.integer({ min: 8, max: 2048 }).map((n) => n * 2),
    height: fc.integer({ min: 8, max: 2048 }).map((n) => n * 2),
  }),
);

/** A valid document; ids are unique by construction (scene index, element index). */
const validDoc = fc
  .record({
    size,
    fps: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
    draft: fc.option(fc.boolean(), { nil: undefined }),
    scenes: fc.array(scene, { minLength: 1, maxLength: 6 }),
  })
  .map(({ size, fps, draft, scenes }) => {
    const doc: Json = { schema: 'v1', ...size };
    if (fps !== undefined) doc.fps = fps;
    if (draft !== undefined) doc.draft = draft;
    doc.scenes = scenes.map((s, i) => ({
      id: `scene-${i}`,
      ...s,
      elements: (s.elements as Json[]).map((e, j) => ({ id: `el-${i}-${j}`, ...e })),
    }));
    return doc;
  });

// ---- single mutations with exactly one expected finding ---------------------------------------

type Mutation = { name: string; apply: (doc: Json, pick: number) => [string, string] | undefined };

const scenesOf = (d: Json) => d.scenes as Json[];
const elementsOf = (s: Json) => s.elements as Json[];
const allElements = (d: Json) => scenesOf(d).flatMap((s, i) => elementsOf(s).map((e, j) => ({ e, i, j })));

const MUTATIONS: Mutation[] = [
  {
    name: 'unknown key on an element',
    apply: (d, pick) => {
      const all = allElements(d);
      const { e, i, j } = all[pick % all.length]!;
      e.surprise = true;
      return ['SCHEMA_INVALID', `scenes[${i}].elements[${j}].surprise`];
    },
  },
  {
    name: 'element id removed',
    apply: (d, pick) => {
      const all = allElements(d);
      const { e, i, j } = all[pick % all.length]!;
      delete e.id;
      return ['SCHEMA_INVALID', `scenes[${i}].elements[${j}].id`];
    },
  },
  {
    name: 'element type unknown',
    apply: (d, pick) => {
      // Not a voice element: losing it would also break its "voice" scene (a second finding).
      const all = allElements(d).filter(({ e }) => e.type !== 'voice');
      if (all.length === 0) return undefined;
      const { e, i, j } = all[pick % all.length]!;
      e.type = 'hologram';
      return ['SCHEMA_INVALID', `scenes[${i}].elements[${j}].type`];
    },
  },
  {
    name: 'scene id repeated',
    apply: (d, pick) => {
      const scenes = scenesOf(d);
      if (scenes.length < 2) return undefined;
      const i = 1 + (pick % (scenes.length - 1));
      scenes[i]!.id = scenes[0]!.id;
      return ['SCENE_ID_DUPLICATE', `scenes[${i}].id`];
    },
  },
  {
    name: 'element id repeated',
    apply: (d, pick) => {
      const all = allElements(d);
      if (all.length < 2) return undefined;
      const k = 1 + (pick % (all.length - 1));
      const { e, i, j } = all[k]!;
      e.id = all[0]!.e.id;
      return ['ELEMENT_ID_DUPLICATE', `scenes[${i}].elements[${j}].id`];
    },
  },
  {
    name: 'numeric scene emptied',
    apply: (d, pick) => {
      const numeric = scenesOf(d)
        .map((s, i) => ({ s, i }))
        .filter(({ s }) => typeof s.duration === 'number');
      if (numeric.length === 0) return undefined;
      const { s, i } = numeric[pick % numeric.length]!;
      s.elements = [];
      return ['SCENE_EMPTY', `scenes[${i}].elements`];
    },
  },
  {
    name: 'fps out of range',
    apply: (d, pick) => {
      d.fps = pick % 2 ? 0 : 61;
      return ['VALIDATION_ERROR', 'fps'];
    },
  },
  {
    name: 'background not a colour',
    apply: (d, pick) => {
      const i = pick % scenesOf(d).length;
      scenesOf(d)[i]!.background = 'not-a-colour';
      return ['VALIDATION_ERROR', `scenes[${i}].background`];
    },
  },
  {
    name: 'scene duration negative',
    apply: (d, pick) => {
      const i = pick % scenesOf(d).length;
      const s = scenesOf(d)[i]!;
      if (typeof s.duration !== 'number') return undefined;
      // Element timing is only compared with a valid duration, so this stays a single finding.
      s.duration = -1;
      return ['VALIDATION_ERROR', `scenes[${i}].duration`];
    },
  },
  {
    name: 'autoFit minFontSize above fontSize',
    apply: (d, pick) => {
      const all = allElements(d).filter(({ e }) => e.type === 'text');
      if (all.length === 0) return undefined;
      const { e, i, j } = all[pick % all.length]!;
      const size = 10 + (pick % 900);
      e.fontSize = size;
      e.maxLines = 2;
      e.autoFit = { minFontSize: size + 0.5 };
      return ['VALIDATION_ERROR', `scenes[${i}].elements[${j}].autoFit.minFontSize`];
    },
  },
  {
    name: 'autoFit with nothing to fit into',
    apply: (d, pick) => {
      const all = allElements(d).filter(({ e }) => e.type === 'text');
      if (all.length === 0) return undefined;
      const { e, i, j } = all[pick % all.length]!;
      delete e.maxHeight;
      delete e.maxLines;
      e.autoFit = { minFontSize: 1 };
      return ['VALIDATION_ERROR', `scenes[${i}].elements[${j}].autoFit`];
    },
  },
  {
    name: 'subtitles with both box fields',
    apply: (d, pick) => {
      const all = allElements(d).filter(({ e }) => e.type === 'subtitles');
      if (all.length === 0) return undefined;
      const { e, i, j } = all[pick % all.length]!;
      e.backgroundColor = '#000';
      e.background = { color: '#111' };
      return ['VALIDATION_ERROR', `scenes[${i}].elements[${j}].backgroundColor`];
    },
  },
  {
    name: 'stroke without its colour',
    apply: (d, pick) => {
      const all = allElements(d).filter(({ e }) => e.type === 'text' || e.type === 'subtitles');
      if (all.length === 0) return undefined;
      const { e, i, j } = all[pick % all.length]!;
      e.stroke = { width: 1 + (pick % 49) };
      return ['SCHEMA_INVALID', `scenes[${i}].elements[${j}].stroke.color`];
    },
  },
  {
    name: 'schema tag unknown',
    apply: (d) => {
      d.schema = 'v0';
      return ['UNSUPPORTED_SCHEMA_VERSION', 'schema'];
    },
  },
];

describe('property: generated valid documents', () => {
  test('pass validateMovie, validateTemplate and resolveMovie unchanged', () => {
    fc.assert(
      fc.property(validDoc, (doc) => {
        const r = validateMovie(doc);
        assert.deepEqual(r.ok ? [] : r.findings, []);
        assert.ok(validateTemplate(doc).ok);
        const resolved = resolveMovie(doc);
        assert.ok(resolved.ok && resolved.value === doc);
      }),
      { numRuns: 300 },
    );
  });

  test('a single mutation yields exactly the expected finding', () => {
    fc.assert(
      fc.property(validDoc, fc.constantFrom(...MUTATIONS), fc.nat(), (generated, mutation, pick) => {
        // fast-check may hand the same generated value to several runs while shrinking: mutate a copy.
        const doc = structuredClone(generated);
        const expected = mutation.apply(doc, pick);
        fc.pre(expected !== undefined);
        const r = validateMovie(doc);
        assert.ok(!r.ok, `${mutation.name}: expected a finding`);
        assert.deepEqual(
          r.findings.map((f) => [f.code, f.path]),
          [expected],
          `${mutation.name}: ${JSON.stringify(r.findings)}`,
        );
      }),
      { numRuns: 500 },
    );
  });

  test('any text value of a string variable lands verbatim (it is not scanned again)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (value) => {
        const doc = {
          schema: 'v1',
          preset: '1:1',
          variables: { v: { type: 'string' } },
          scenes: [{ id: 's', duration: 1, elements: [{ id: 't', type: 'text', text: '{{v}}' }] }],
        };
        const r = resolveMovie(doc, { v: value });
        assert.ok(r.ok, JSON.stringify(r));
        const el = r.value.scenes[0]!.elements[0]!;
        assert.equal(el.type === 'text' && el.text, value);
      }),
      { numRuns: 300 },
    );
  });

  test('timelines tile the frames: no gaps, total = round(sum * fps)', () => {
    fc.assert(
      fc.property(
        validDoc,
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.double({ min: 0.01, max: 100, noNaN: true }), { minLength: 6, maxLength: 6 }),
        (doc, fps, pool) => {
          const movie = validateMovie(doc);
          assert.ok(movie.ok);
          const durations = movie.value.scenes.map((_, i) => pool[i]!);
          const t = buildTimeline(movie.value, durations, fps);
          const sum = durations.reduce((a, b) => a + b, 0);
          // The total is the nearest frame to sum * fps. A half frame rounds up, and one that float
          // noise left within 1e-6 below the half counts as the half (15001.499999999987 frames is
          // 15002), which a bare Math.round(sum * fps) would miss: the tie may go either way.
          const exact = sum * fps;
          const nearest = Math.round(exact);
          const tie = Math.abs(Math.abs(exact - Math.trunc(exact)) - 0.5) < 1e-6;
          if (tie)
            assert.ok([Math.floor(exact), Math.ceil(exact)].includes(t.totalFrames), `${exact}: ${t.totalFrames}`);
          else assert.equal(t.totalFrames, nearest);
          assert.equal(t.scenes[0]!.startFrame, 0);
          for (let i = 1; i < t.scenes.length; i++) assert.equal(t.scenes[i]!.startFrame, t.scenes[i - 1]!.endFrame);
          assert.equal(t.scenes.at(-1)!.endFrame, t.totalFrames);
          for (const s of t.scenes) assert.ok(s.endFrame >= s.startFrame);
        },
      ),
      { numRuns: 200 },
    );
  });
});
