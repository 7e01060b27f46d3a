import { words } from './words.ts';

/** Writing systems we can recognise from Unicode script properties. */
type WritingSystem =
  | 'latin'
  | 'cyrillic'
  | 'greek'
  | 'arabic'
  | 'hebrew'
  | 'devanagari'
  | 'bengali'
  | 'thai'
  | 'hangul'
  | 'japanese'
  | 'han';

export interface KnownLanguage {
  /** ISO 639-1 code, also the locale the word segmenter uses. */
  code: string;
  /** Lower-case English and native names ("spanish", "español"). */
  names: string[];
  system: WritingSystem;
}

// Languages a script is most often asked for. Anything else is accepted and passed to the model,
// but only the model's instructions cover it: we do not guess at a language we cannot recognise.
const SYSTEMS: Record<string, WritingSystem> = {
  en: 'latin',
  es: 'latin',
  fr: 'latin',
  de: 'latin',
  it: 'latin',
  pt: 'latin',
  nl: 'latin',
  sv: 'latin',
  da: 'latin',
  nb: 'latin',
  fi: 'latin',
  pl: 'latin',
  cs: 'latin',
  sk: 'latin',
  ro: 'latin',
  hu: 'latin',
  tr: 'latin',
  id: 'latin',
  ms: 'latin',
  vi: 'latin',
  sw: 'latin',
  ca: 'latin',
  hr: 'latin',
  tl: 'latin',
  ru: 'cyrillic',
  uk: 'cyrillic',
  bg: 'cyrillic',
  el: 'greek',
  ar: 'arabic',
  fa: 'arabic',
  ur: 'arabic',
  he: 'hebrew',
  hi: 'devanagari',
  mr: 'devanagari',
  ne: 'devanagari',
  bn: 'bengali',
  th: 'thai',
  ko: 'hangul',
  ja: 'japanese',
  zh: 'han',
};

const english = new Intl.DisplayNames(['en'], { type: 'language' });

const KNOWN_LANGUAGES: readonly KnownLanguage[] = Object.entries(SYSTEMS).map(([code, system]) => {
  const names = new Set<string>([code]);
  const en = english.of(code);
  if (en) names.add(en.toLowerCase());
  const native = new Intl.DisplayNames([code], { type: 'language' }).of(code);
  if (native) names.add(native.toLowerCase());
  if (code === 'bn') names.add('bengali');
  if (code === 'nb') names.add('norwegian');
  if (code === 'zh') names.add('mandarin');
  if (code === 'tl') names.add('tagalog');
  return { code, names: [...names], system };
});

/**
 * Recognises a requested language given as a name ("Spanish", "español", "Brazilian Portuguese")
 * or a tag ("es", "pt-BR"). Null when we do not know it; the request is still valid then.
 */
export function recogniseLanguage(input: string): KnownLanguage | null {
  const text = input.trim().toLowerCase();
  try {
    const code = new Intl.Locale(text).language;
    const byTag = KNOWN_LANGUAGES.find((l) => l.code === code);
    if (byTag) return byTag;
  } catch {
    // Not a language tag: try names below.
  }
  const exact = KNOWN_LANGUAGES.find((l) => l.names.includes(text));
  if (exact) return exact;
  // "Brazilian Portuguese", "Spanish (Mexico)": a known name as a whole word.
  const tokens = new Set(text.split(/[^\p{L}]+/u).filter(Boolean));
  return KNOWN_LANGUAGES.find((l) => l.names.some((n) => n.length > 2 && tokens.has(n))) ?? null;
}

const SCRIPT_RE: Record<Exclude<WritingSystem, 'japanese'>, RegExp> = {
  latin: /\p{Script=Latin}/gu,
  cyrillic: /\p{Script=Cyrillic}/gu,
  greek: /\p{Script=Greek}/gu,
  arabic: /\p{Script=Arabic}/gu,
  hebrew: /\p{Script=Hebrew}/gu,
  devanagari: /\p{Script=Devanagari}/gu,
  bengali: /\p{Script=Bengali}/gu,
  thai: /\p{Script=Thai}/gu,
  hangul: /\p{Script=Hangul}/gu,
  han: /\p{Script=Han}/gu,
};
const KANA_RE = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;

function count(re: RegExp, text: string): number {
  return text.match(re)?.length ?? 0;
}

/** Share of the letters of `text` written in the language's writing system (0..1). */
function writingSystemShare(system: WritingSystem, text: string): number {
  const letters = count(/\p{L}/gu, text);
  if (letters === 0) return 0;
  const hits =
    system === 'japanese' ? count(SCRIPT_RE.han, text) + count(KANA_RE, text) : count(SCRIPT_RE[system], text);
  return hits / letters;
}

// The most frequent function words of the Latin-script languages a draft is most often confused
// with. Their share of a text tells these languages apart reliably on a few dozen words.
const FUNCTION_WORDS: Record<string, ReadonlySet<string>> = {
  en: new Set('the and of to is in that it with for this are was you on be as at by'.split(' ')),
  es: new Set('el la los las de que y en un una es por con para del se no su al'.split(' ')),
  fr: new Set('le la les de des et est un une que dans pour pas sur du au qui ce il'.split(' ')),
  de: new Set('der die das und ist nicht ein eine zu mit den von auf sich auch dem im es'.split(' ')),
  it: new Set('il lo la di che e è un una per non con sono del della gli le si'.split(' ')),
  pt: new Set('o a os as de que e é um uma não com para do da em no na se'.split(' ')),
  nl: new Set('de het een en van is dat niet op te zijn met voor die ook er in'.split(' ')),
};

/** Share of `tokens` that are function words of each language we keep lists for. */
function functionWordShares(tokens: readonly string[]): Record<string, number> {
  const shares: Record<string, number> = {};
  for (const [code, set] of Object.entries(FUNCTION_WORDS)) {
    let hits = 0;
    for (const t of tokens) if (set.has(t)) hits++;
    shares[code] = tokens.length === 0 ? 0 : hits / tokens.length;
  }
  return shares;
}

/** Below this many words the function-word test says nothing reliable. */
const MIN_WORDS_FOR_LANGUAGE_TEST = 30;

/**
 * Checks that `text` is written in the requested language; returns what is wrong, or null.
 * Two deterministic tests, applied only to languages we recognise:
 * 1. at least half of the letters are in the language's writing system (catches English
 *    narration for a Japanese request); Japanese must also contain kana, to tell it from Chinese;
 * 2. for Latin-script languages, with at least 30 words: no language of our function-word
 *    lists scores clearly above the requested one (catches English narration for Spanish),
 *    and a non-English request must not read as English.
 */
export function languageProblem(requested: string, text: string, tokens?: readonly string[]): string | null {
  const lang = recogniseLanguage(requested);
  if (!lang) return null;
  const share = writingSystemShare(lang.system, text);
  if (share < 0.5) {
    return `it is not written in ${requested}: only ${Math.round(share * 100)}% of its letters are in the ${lang.system} script`;
  }
  if (lang.system === 'japanese' && count(KANA_RE, text) === 0) {
    return `it is not written in ${requested}: it contains no kana (it reads as Chinese)`;
  }
  if (lang.system !== 'latin') return null;
  const all = tokens ?? words(text, lang.code);
  if (all.length < MIN_WORDS_FOR_LANGUAGE_TEST) return null;
  const shares = functionWordShares(all);
  const own = shares[lang.code];
  let rival: [string, number] | null = null;
  for (const [code, s] of Object.entries(shares)) {
    if (code !== lang.code && (!rival || s > rival[1])) rival = [code, s];
  }
  if (!rival) return null;
  const [rivalCode, rivalShare] = rival;
  const readsAsRival =
    own === undefined
      ? rivalCode === 'en' && rivalShare >= 0.15 // a language without a list: only "not English" is testable
      : rivalShare >= 0.1 && rivalShare > own * 1.5;
  if (!readsAsRival) return null;
  return `it is not written in ${requested}: it reads as ${english.of(rivalCode) ?? rivalCode}`;
}
