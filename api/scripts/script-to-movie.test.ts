import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { resolveMovie, validateMovie } from '../../movie/index.ts';
import { narration } from '../../test/fakes/script-drafts.ts';
import {
  chooseVoice,
  escapePlaceholders,
  localeForLanguage,
  type ScriptForMovie,
  scriptToMovie,
} from './script-to-movie.ts';

function script(scenes: number, extra: Partial<ScriptForMovie> = {}): ScriptForMovie {
  return {
    title: 'The Keeper of the Light',
    language: 'English',
    scenes: Array.from({ length: scenes }, (_, i) => ({
      index: i + 1,
      voiceText: narration(20, i),
      imagePrompt: `lighthouse ${i}`,
    })),
    ...extra,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: walking a plain JSON document in assertions
type Json = any;

test('one scene per script scene, timed by the voice, with narration, subtitles and the title', () => {
  const doc = scriptToMovie(script(3)) as Json;
  assert.ok(validateMovie(doc).ok);
  assert.equal(doc.schema, 'v1');
  assert.equal(doc.preset, '16:9');
  assert.equal(doc.scenes.length, 3);
  assert.deepEqual(
    doc.scenes.map((s: Json) => [s.id, s.duration, s.elements.map((e: Json) => e.type).join(',')]),
    [
      ['scene-1', 'voice', 'text,voice,subtitles'],
      ['scene-2', 'voice', 'voice,subtitles'],
      ['scene-3', 'voice', 'voice,subtitles'],
    ],
  );
  assert.equal(doc.scenes[0].elements[0].text, 'The Keeper of the Light');
  assert.equal(doc.scenes[1].elements[0].text, narration(20, 1));
  assert.equal(doc.scenes[1].elements[0].voiceId, 'espeak-en-us');
  assert.equal(doc.scenes[1].elements[0].language, 'en-US');
});

test('no title: no text element', () => {
  const doc = scriptToMovie(script(2, { title: null })) as Json;
  assert.deepEqual(
    doc.scenes[0].elements.map((e: Json) => e.type),
    ['voice', 'subtitles'],
  );
});

test('options: preset, voice and language', () => {
  const doc = scriptToMovie(script(1, { language: 'German' }), { preset: '9:16', voiceId: 'openai-nova' }) as Json;
  assert.equal(doc.preset, '9:16');
  assert.equal(doc.scenes[0].elements[1].voiceId, 'openai-nova');
  assert.equal(doc.scenes[0].elements[1].language, 'de-DE');
  assert.ok(resolveMovie(doc).ok);
});

test('model text that looks like a placeholder renders literally', () => {
  const doc = scriptToMovie(script(1, { title: 'Use {{name}} here' })) as Json;
  assert.equal(doc.scenes[0].elements[0].text, 'Use {{{{name}}}} here');
  const resolved = resolveMovie(doc);
  assert.ok(resolved.ok, JSON.stringify(resolved));
  assert.equal((resolved.value as Json).scenes[0].elements[0].text, 'Use {{name}} here');
  assert.equal(escapePlaceholders('a {{ b }} c {d}'), 'a {{{{ b }}}} c {d}');
});

describe('language and voice', () => {
  const locales: [string, string][] = [
    ['English', 'en-US'],
    ['en-GB', 'en-GB'],
    ['Japanese', 'ja-JP'],
    ['pt-BR', 'pt-BR'],
    ['Spanish', 'es-ES'],
    ['Swahili', 'sw'],
    ['Klingon', 'en-US'],
  ];
  for (const [language, locale] of locales) {
    test(`${language} -> ${locale}`, () => assert.equal(localeForLanguage(language), locale));
  }

  test('a language without an offline voice gets an OpenAI voice', () => {
    assert.deepEqual(chooseVoice({}, 'Swahili'), { language: 'sw', voiceId: 'openai-alloy' });
  });
  test('an offline voice sets the language', () => {
    assert.deepEqual(chooseVoice({ voiceId: 'espeak-fr-fr' }, 'English'), {
      language: 'fr-FR',
      voiceId: 'espeak-fr-fr',
    });
  });
  test('an offline voice that does not speak the language is a VALIDATION_ERROR at voiceId', () => {
    assert.throws(
      () => chooseVoice({ voiceId: 'espeak-de-de', language: 'ja-JP' }, 'Japanese'),
      (e: unknown) => e instanceof AppError && e.code === 'VALIDATION_ERROR' && e.path === 'voiceId',
    );
  });
});

test('the largest script maps to a valid movie', () => {
  const doc = scriptToMovie(script(50, { language: 'fr' }), { preset: '1:1' });
  assert.ok(validateMovie(doc).ok);
});
