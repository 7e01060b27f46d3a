import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentType, extension, keepsAlpha, OUTPUT_FORMATS, outputKind } from '../lib/output-formats.ts';
import { validateMovie, validateTemplate } from './index.ts';
import { movieOutputFormat } from './output-kind.ts';

type Json = Record<string, unknown>;

/** Two scenes of 2 s and 3 s joined by a 1 s transition: the movie is 4 s long. */
function doc(output?: Json, extra: Json = {}): Json {
  return {
    schema: 'v1',
    width: 128,
    height: 72,
    ...extra,
    ...(output === undefined ? {} : { output }),
    scenes: [
      { id: 'a', duration: 2, elements: [{ id: 't', type: 'text', text: 'x' }] },
      {
        id: 'b',
        duration: 3,
        transition: { type: 'crossfade', duration: 1 },
        elements: [{ id: 'v', type: 'voice', text: 'hello there' }],
      },
    ],
  };
}

const silent = (output: Json): Json => ({
  schema: 'v1',
  width: 128,
  height: 72,
  output,
  scenes: [{ id: 'a', duration: 1, elements: [{ id: 't', type: 'text', text: 'x' }] }],
});

function findings(d: Json): [string, string][] {
  const r = validateMovie(d);
  if (r.ok) return [];
  for (const f of r.findings) assert.ok(f.message.length > 20, f.message);
  return r.findings.map((f) => [f.code, f.path ?? '']);
}

describe('output: the table', () => {
  test('every format has one kind, one extension and one content type; keys give the format back', () => {
    const expected: Record<string, [string, string, string]> = {
      mp4: ['video', 'mp4', 'video/mp4'],
      webm: ['video', 'webm', 'video/webm'],
      mov: ['video', 'mov', 'video/quicktime'],
      gif: ['video', 'gif', 'image/gif'],
      mp3: ['audio', 'mp3', 'audio/mpeg'],
      wav: ['audio', 'wav', 'audio/wav'],
      png: ['still', 'png', 'image/png'],
      jpeg: ['still', 'jpg', 'image/jpeg'],
      webp: ['still', 'webp', 'image/webp'],
    };
    assert.deepEqual([...OUTPUT_FORMATS].sort(), Object.keys(expected).sort());
    for (const f of OUTPUT_FORMATS) {
      assert.deepEqual([outputKind(f), extension(f), contentType(f)], expected[f], f);
    }
    assert.deepEqual(
      OUTPUT_FORMATS.filter((f) => keepsAlpha(f)),
      ['webm', 'mov', 'png', 'webp'],
    );
  });

  test('a movie without output is mp4, and renders as before', () => {
    assert.equal(movieOutputFormat(doc()), 'mp4');
    assert.equal(movieOutputFormat(doc({})), 'mp4');
    assert.equal(movieOutputFormat(doc({ format: 'webm' })), 'webm');
    assert.deepEqual(findings(doc()), []);
  });
});

describe('output: validation', () => {
  const cases: [string, Json, [string, string][]][] = [
    ['each video format', { format: 'webm', posterTime: 3.9 }, []],
    ['a still at its time', { format: 'png', time: 3.5 }, []],
    ['a still without time (the first frame)', { format: 'jpeg' }, []],
    ['audio of a movie with a voice', { format: 'mp3' }, []],
    ['an unknown format', { format: 'avi' }, [['SCHEMA_INVALID', 'output.format']]],
    ['an unknown field', { format: 'mp4', codec: 'h265' }, [['SCHEMA_INVALID', 'output.codec']]],
    ['a negative time', { format: 'png', time: -1 }, [['VALIDATION_ERROR', 'output.time']]],
    ['time with a video format', { format: 'mp4', time: 1 }, [['VALIDATION_ERROR', 'output.time']]],
    ['time with the default format', { time: 1 }, [['VALIDATION_ERROR', 'output.time']]],
    ['time with an audio format', { format: 'wav', time: 1 }, [['VALIDATION_ERROR', 'output.time']]],
    [
      'time at the end of a 4 s movie (transition overlap counted)',
      { format: 'webp', time: 4 },
      [['VALIDATION_ERROR', 'output.time']],
    ],
    ['posterTime with a still', { format: 'png', posterTime: 1 }, [['VALIDATION_ERROR', 'output.posterTime']]],
    ['posterTime with audio', { format: 'mp3', posterTime: 1 }, [['VALIDATION_ERROR', 'output.posterTime']]],
    ['posterTime after the end', { format: 'gif', posterTime: 4.5 }, [['VALIDATION_ERROR', 'output.posterTime']]],
    ['output not an object', 'mp4' as unknown as Json, [['SCHEMA_INVALID', 'output']]],
  ];
  for (const [name, output, expected] of cases) {
    test(name, () => assert.deepEqual(findings(doc(output)), expected));
  }

  test('an audio format of a movie with no sound is refused at output.format', () => {
    for (const format of ['mp3', 'wav'])
      assert.deepEqual(findings(silent({ format })), [['VALIDATION_ERROR', 'output.format']]);
    assert.deepEqual(findings(silent({ format: 'webm' })), []);
    const withSoundtrack = { ...silent({ format: 'wav' }), soundtrack: { src: 'https://example.com/a.mp3' } };
    assert.deepEqual(findings(withSoundtrack), []);
  });

  test('a time is compared with the length only when every scene has a number of seconds', () => {
    const d = doc({ format: 'png', time: 100 });
    (d.scenes as Json[])[1]!.duration = 'voice';
    assert.deepEqual(findings(d), []);
  });

  test('a format given as a placeholder is checked once resolved', () => {
    const t = { ...doc({ format: '{{fmt}}', time: 1 }), variables: { fmt: { type: 'string' } } };
    const r = validateTemplate(t);
    assert.ok(r.ok, JSON.stringify(r));
  });
});
