import { type Static, Type } from '@sinclair/typebox';
import { AppError } from '../../lib/errors.ts';
import {
  DEFAULT_LANGUAGE,
  defaultVoiceFor,
  type Movie,
  resolveMovie,
  VOICES,
  type VoiceInfo,
  voiceById,
} from '../../movie/index.ts';
import { optionalBody, StringEnum } from '../http/schemas.ts';
import { recogniseLanguage } from './language.ts';
import type { ScriptScene } from './schemas.ts';

const MOVIE_PRESETS = ['16:9', '9:16', '1:1', '4:5', '4:3'] as const;

/** Body of POST /v1/scripts/{id}/movie: every field optional, and so is the body. */
export const MovieOptionsSchema = optionalBody(
  Type.Object(
    {
      preset: Type.Optional(StringEnum(MOVIE_PRESETS, 'Aspect preset of the movie. Default: 16:9.')),
      voiceId: Type.Optional(
        StringEnum(
          VOICES.map((v) => v.id),
          'Voice of the narration. Default: the offline voice for the language, else openai-alloy.',
        ),
      ),
      language: Type.Optional(
        Type.String({
          pattern: '^[a-z]{2,3}(-[A-Z]{2})?$',
          description: "Locale of the narration (en-US, de). Default: derived from the script's language.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export type MovieOptions = Static<typeof MovieOptionsSchema>;

/** What the mapping needs from a stored script. */
export interface ScriptForMovie {
  title: string | null;
  scenes: ScriptScene[];
  /** The language the script was written in, as requested ("English", "pt-BR"). */
  language: string;
}

const base = (tag: string) => (tag.split('-')[0] ?? tag).toLowerCase();

function speaks(voice: VoiceInfo, locale: string): boolean {
  return voice.language === 'multi' || base(voice.language) === base(locale);
}

/**
 * The locale of a script language: the offline voice's locale when the catalogue has one
 * ("English" -> en-US, "Japanese" -> ja-JP), the bare code for other recognised languages, and
 * en-US when we do not recognise the language.
 */
export function localeForLanguage(language: string): string {
  const known = recogniseLanguage(language);
  if (!known) return DEFAULT_LANGUAGE;
  // A tag the caller gave ("pt-BR") is kept when it is already in locale form.
  if (/^[a-z]{2,3}-[A-Z]{2}$/.test(language.trim())) return language.trim();
  const voice = defaultVoiceFor(known.code);
  return speaks(voice, known.code) ? voice.language : known.code;
}

/** Picks language and voice; the voice must speak the language (offline voices speak one each). */
export function chooseVoice(opts: MovieOptions, scriptLanguage: string): { language: string; voiceId: string } {
  const chosen = opts.voiceId === undefined ? undefined : voiceById(opts.voiceId);
  const language =
    opts.language ?? (chosen && chosen.language !== 'multi' ? chosen.language : localeForLanguage(scriptLanguage));
  if (chosen) {
    if (!speaks(chosen, language)) {
      throw new AppError(
        'VALIDATION_ERROR',
        `Voice ${chosen.id} speaks ${chosen.language}, not ${language}; choose a voice for ${language} or an openai-* voice.`,
        { path: 'voiceId' },
      );
    }
    return { language, voiceId: chosen.id };
  }
  const offline = defaultVoiceFor(language);
  // No offline voice for the language: an OpenAI voice speaks it (needs OPENAI_API_KEY on the worker).
  return { language, voiceId: speaks(offline, language) ? offline.id : 'openai-alloy' };
}

// Model text is data, not a template: wrap anything that looks like a {{placeholder}} in the
// document's escape so it renders literally instead of failing as an undeclared variable.
const PLACEHOLDER = /\{\{(\s*[A-Za-z_][A-Za-z0-9_]*\s*)\}\}/g;
export function escapePlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, '{{{{$1}}}}');
}

/**
 * A ready v1 movie document from a script: one scene per script scene lasting as long as its
 * voiceover, the narration as a voice element with word-timed subtitles, and the title as text
 * on the first scene. Checked with the movie library, so the caller can POST it to /v1/renders.
 */
export function scriptToMovie(script: ScriptForMovie, opts: MovieOptions = {}): Movie {
  const { language, voiceId } = chooseVoice(opts, script.language);
  const doc = {
    schema: 'v1',
    preset: opts.preset ?? '16:9',
    scenes: script.scenes.map((s) => {
      const n = s.index;
      const elements: Record<string, unknown>[] = [];
      if (n === 1 && script.title !== null) {
        elements.push({
          id: 'title',
          type: 'text',
          text: escapePlaceholders(script.title),
          fontSize: 72,
          fontWeight: 700,
          animation: { preset: 'fade-in', duration: 0.5 },
        });
      }
      elements.push(
        { id: `voice-${n}`, type: 'voice', text: escapePlaceholders(s.voiceText), voiceId, language },
        { id: `subtitles-${n}`, type: 'subtitles' },
      );
      return { id: `scene-${n}`, duration: 'voice', elements };
    }),
  };
  const checked = resolveMovie(doc);
  if (!checked.ok) {
    // The document is built from checked parts, so this is our bug, not the caller's.
    const first = checked.findings[0];
    throw new AppError('INTERNAL', `The movie built from the script is invalid: ${first?.path}: ${first?.message}`);
  }
  return doc as unknown as Movie;
}
