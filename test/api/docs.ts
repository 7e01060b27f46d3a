/** Movie documents for the API tests (the API's own view: small, each breaking one rule). */
type Json = Record<string, unknown>;

export function movie(durationSec = 3, extra: Json = {}): Json {
  return {
    schema: 'v1',
    preset: '16:9',
    scenes: [{ id: 's1', duration: durationSec, elements: [{ id: 't1', type: 'text', text: 'Hello' }] }],
    ...extra,
  };
}

const scene = (id: string, elements: Json[], duration: unknown = 3): Json => ({ id, duration, elements });
const text = (id: string, value: string): Json => ({ id, type: 'text', text: value });

/** One case per movie error code: document, request variables, and the expected path. */
export const MOVIE_ERROR_CASES: { code: string; doc: Json; variables?: Json; path: string }[] = [
  { code: 'SCHEMA_INVALID', doc: movie(3, { bogus: 1 }), path: 'bogus' },
  { code: 'UNSUPPORTED_SCHEMA_VERSION', doc: movie(3, { schema: 'v9' }), path: 'schema' },
  {
    code: 'ELEMENT_ID_DUPLICATE',
    doc: movie(3, { scenes: [scene('s1', [text('t1', 'a'), text('t1', 'b')])] }),
    path: 'scenes[0].elements[1].id',
  },
  {
    code: 'SCENE_ID_DUPLICATE',
    doc: movie(3, { scenes: [scene('s1', [text('t1', 'a')]), scene('s1', [text('t2', 'b')])] }),
    path: 'scenes[1].id',
  },
  { code: 'SCENE_EMPTY', doc: movie(3, { scenes: [scene('s1', [])] }), path: 'scenes[0].elements' },
  {
    code: 'VARIABLE_UNDECLARED',
    doc: movie(3, { scenes: [scene('s1', [text('t1', 'Hi {{name}}')])] }),
    path: 'scenes[0].elements[0].text',
  },
  {
    code: 'VARIABLE_MISSING',
    doc: movie(3, { variables: { name: { type: 'string' } }, scenes: [scene('s1', [text('t1', 'Hi {{name}}')])] }),
    path: 'scenes[0].elements[0].text',
  },
  {
    code: 'VARIABLE_TYPE_MISMATCH',
    doc: movie(3, { variables: { n: { type: 'number' } }, scenes: [scene('s1', [text('t1', 'Hi')], '{{n}}')] }),
    variables: { n: 'abc' },
    path: 'scenes[0].duration',
  },
];

/**
 * Keys that are not plain names, and the path a finding at such a key carries (movie/paths.ts
 * formatPath, the one formatter of movie and request paths): JSON-quoted in brackets.
 */
export const UNUSUAL_KEYS: { key: string; path: string }[] = [
  { key: 'a.b', path: '["a.b"]' },
  { key: 'a[0]', path: '["a[0]"]' },
  { key: 'say "hi"', path: '["say \\"hi\\""]' },
  { key: 'two words', path: '["two words"]' },
  { key: '0', path: '["0"]' },
  { key: '', path: '[""]' },
  { key: 'ключ', path: '["ключ"]' },
];

/** A template body with one declared variable used in a text element. */
export function templateBody(extra: Json = {}): Json {
  return movie(3, {
    variables: { name: { type: 'string', default: 'world' } },
    scenes: [scene('s1', [text('t1', 'Hello {{name}}')])],
    ...extra,
  });
}
