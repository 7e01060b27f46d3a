/**
 * The voice catalogue. espeak-ng voices work offline; OpenAI voices speak any language and need
 * OPENAI_API_KEY on the worker. `engineVoice` is the name the engine itself takes (`espeak-ng -v`).
 */
export interface VoiceInfo {
  id: string;
  engine: 'espeak' | 'openai';
  /** Locale the voice speaks (`en-US`), or `multi` for voices that speak the text's language. */
  language: string;
  description: string;
  engineVoice: string;
}

const espeak = (id: string, language: string, engineVoice: string, description: string): VoiceInfo => ({
  id: `espeak-${id}`,
  engine: 'espeak',
  language,
  description,
  engineVoice,
});

const openai = (name: string, description: string): VoiceInfo => ({
  id: `openai-${name}`,
  engine: 'openai',
  language: 'multi',
  description,
  engineVoice: name,
});

export const VOICES: readonly VoiceInfo[] = Object.freeze([
  espeak('en-us', 'en-US', 'en-us', 'English (America), espeak-ng'),
  espeak('en-gb', 'en-GB', 'en-gb', 'English (Great Britain), espeak-ng'),
  espeak('de-de', 'de-DE', 'de', 'German, espeak-ng'),
  espeak('fr-fr', 'fr-FR', 'fr-fr', 'French (France), espeak-ng'),
  espeak('es-es', 'es-ES', 'es', 'Spanish (Spain), espeak-ng'),
  espeak('it-it', 'it-IT', 'it', 'Italian, espeak-ng'),
  espeak('pt-br', 'pt-BR', 'pt-br', 'Portuguese (Brazil), espeak-ng'),
  espeak('pt-pt', 'pt-PT', 'pt', 'Portuguese (Portugal), espeak-ng'),
  espeak('nl-nl', 'nl-NL', 'nl', 'Dutch, espeak-ng'),
  espeak('pl-pl', 'pl-PL', 'pl', 'Polish, espeak-ng'),
  espeak('sv-se', 'sv-SE', 'sv', 'Swedish, espeak-ng'),
  espeak('da-dk', 'da-DK', 'da', 'Danish, espeak-ng'),
  espeak('nb-no', 'nb-NO', 'nb', 'Norwegian Bokmål, espeak-ng'),
  espeak('fi-fi', 'fi-FI', 'fi', 'Finnish, espeak-ng'),
  espeak('cs-cz', 'cs-CZ', 'cs', 'Czech, espeak-ng'),
  espeak('hu-hu', 'hu-HU', 'hu', 'Hungarian, espeak-ng'),
  espeak('ro-ro', 'ro-RO', 'ro', 'Romanian, espeak-ng'),
  espeak('el-gr', 'el-GR', 'el', 'Greek, espeak-ng'),
  espeak('tr-tr', 'tr-TR', 'tr', 'Turkish, espeak-ng'),
  espeak('ru-ru', 'ru-RU', 'ru', 'Russian, espeak-ng'),
  espeak('uk-ua', 'uk-UA', 'uk', 'Ukrainian, espeak-ng'),
  espeak('id-id', 'id-ID', 'id', 'Indonesian, espeak-ng'),
  espeak('hi-in', 'hi-IN', 'hi', 'Hindi, espeak-ng'),
  espeak('ja-jp', 'ja-JP', 'ja', 'Japanese, espeak-ng'),
  espeak('ko-kr', 'ko-KR', 'ko', 'Korean, espeak-ng'),
  espeak('zh-cn', 'zh-CN', 'cmn', 'Chinese (Mandarin), espeak-ng'),
  espeak('ar-sa', 'ar-SA', 'ar', 'Arabic, espeak-ng'),
  openai('alloy', 'Alloy, OpenAI TTS, neutral'),
  openai('echo', 'Echo, OpenAI TTS, male'),
  openai('fable', 'Fable, OpenAI TTS, British'),
  openai('onyx', 'Onyx, OpenAI TTS, deep male'),
  openai('nova', 'Nova, OpenAI TTS, female'),
  openai('shimmer', 'Shimmer, OpenAI TTS, soft female'),
] satisfies VoiceInfo[]);

export const DEFAULT_LANGUAGE = 'en-US';

const BY_ID: ReadonlyMap<string, VoiceInfo> = new Map(VOICES.map((v) => [v.id, v]));
const ESPEAK = VOICES.filter((v) => v.engine === 'espeak');

export function voiceById(id: string): VoiceInfo | undefined {
  return BY_ID.get(id);
}

const base = (tag: string): string => {
  const dash = tag.indexOf('-');
  return (dash === -1 ? tag : tag.slice(0, dash)).toLowerCase();
};

/** The espeak voice for a locale: exact locale first, then the same base language; undefined when none. */
export function espeakVoiceFor(language: string): VoiceInfo | undefined {
  const lower = language.toLowerCase();
  return ESPEAK.find((v) => v.language.toLowerCase() === lower) ?? ESPEAK.find((v) => base(v.language) === base(lower));
}

/** The voice used when a voice element names no voiceId; English (America) when the language has none. */
export function defaultVoiceFor(language: string): VoiceInfo {
  return espeakVoiceFor(language) ?? BY_ID.get('espeak-en-us')!;
}

/** Whether a voice can speak `language` (OpenAI voices speak every language). */
export function voiceSpeaks(voice: VoiceInfo, language: string): boolean {
  return voice.language === 'multi' || base(voice.language) === base(language);
}

/** Languages the offline voices cover, for messages. */
export const ESPEAK_LANGUAGES: readonly string[] = ESPEAK.map((v) => v.language);
