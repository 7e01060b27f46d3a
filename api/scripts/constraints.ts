import { LIMITS } from '../../movie/index.ts';
import type { Draft, Violation } from './draft.ts';
import { languageProblem, recogniseLanguage } from './language.ts';
import { type EnforcedConstraints, SCRIPT_DEFAULTS, type ScriptRequest, type ScriptScene } from './schemas.ts';
import { findVerbatimRunInWords, indexSource, type SourceIndex, VERBATIM_RUN_WORDS } from './verbatim-copy.ts';
import { words } from './words.ts';

/** The constraints one request is checked under, derived once from the request. */
export function enforcedConstraints(req: ScriptRequest): EnforcedConstraints {
  const range =
    req.sceneCount === null ? { ...SCRIPT_DEFAULTS.sceneCountRange } : { min: req.sceneCount, max: req.sceneCount };
  return {
    sceneCount: range,
    wordsPerScene: req.wordsPerScene,
    imagePrompts: req.includeImagePrompts,
    visualStyle: req.includeImagePrompts ? req.visualStyle : null,
    title: req.includeTitle,
    description: req.includeDescription,
    language: req.language,
    maxVerbatimWords: req.sourceMaterial === null ? null : VERBATIM_RUN_WORDS - 1,
  };
}

/** What the checker needs besides the draft; the source index is built once per request. */
export interface CheckContext {
  constraints: EnforcedConstraints;
  source: SourceIndex | null;
  /** Locale for word segmentation, from the requested language when we recognise it. */
  locale: string | undefined;
}

export function checkContext(req: ScriptRequest): CheckContext {
  const locale = recogniseLanguage(req.language)?.code;
  return {
    constraints: enforcedConstraints(req),
    source: req.sourceMaterial === null ? null : indexSource(req.sourceMaterial, VERBATIM_RUN_WORDS, locale),
    locale,
  };
}

function sceneCountRule(min: number, max: number): string {
  return min === max ? `exactly ${min}` : `between ${min} and ${max}`;
}

function boundsRule(min: number | null, max: number | null): string {
  if (min !== null && max !== null) return min === max ? `exactly ${min}` : `between ${min} and ${max}`;
  return min !== null ? `at least ${min}` : `at most ${max}`;
}

/**
 * Every broken constraint of a draft, each with its path and a message that tells the model what
 * to change. An empty list means the draft is accepted. visualStyle is not checked here: it is
 * applied deterministically by `finaliseDraft`, so it can never be the reason a draft fails.
 */
export function checkDraft(draft: Draft, ctx: CheckContext): Violation[] {
  const c = ctx.constraints;
  const out: Violation[] = [];
  const n = draft.scenes.length;
  if (n < c.sceneCount.min || n > c.sceneCount.max) {
    out.push({
      constraint: 'sceneCount',
      path: 'scenes',
      message: `the script has ${n} scenes; it must have ${sceneCountRule(c.sceneCount.min, c.sceneCount.max)}`,
    });
  }
  if (c.title && draft.title === null) {
    out.push({ constraint: 'title', path: 'title', message: 'the title is missing; write a non-empty title' });
  }
  if (c.description && draft.description === null) {
    out.push({
      constraint: 'description',
      path: 'description',
      message: 'the description is missing; write a non-empty description',
    });
  }
  // Word segmentation is the expensive step: split each text once, use it for every rule.
  const sceneWords = draft.scenes.map((s) => words(s.voiceText, ctx.locale));
  draft.scenes.forEach((scene, i) => {
    // A voice element holds at most LIMITS.textLength characters; longer narration could not
    // become a movie (POST /v1/scripts/{id}/movie).
    if (scene.voiceText.length > LIMITS.textLength) {
      out.push({
        constraint: 'format',
        path: `scenes[${i}].voiceText`,
        message: `scene ${i + 1} narration has ${scene.voiceText.length} characters; keep it under ${LIMITS.textLength}`,
      });
    }
    const wps = c.wordsPerScene;
    if (wps) {
      const count = sceneWords[i]?.length ?? 0;
      if ((wps.min !== null && count < wps.min) || (wps.max !== null && count > wps.max)) {
        out.push({
          constraint: 'wordsPerScene',
          path: `scenes[${i}].voiceText`,
          message: `scene ${i + 1} narration has ${count} words; it must have ${boundsRule(wps.min, wps.max)}`,
        });
      }
    }
    if (c.imagePrompts && scene.imagePrompt === null) {
      out.push({
        constraint: 'imagePrompt',
        path: `scenes[${i}].imagePrompt`,
        message: `scene ${i + 1} has no imagePrompt; every scene needs one`,
      });
    }
  });

  const narration = draft.scenes.map((s) => s.voiceText).join('\n');
  const langText = [c.title ? draft.title : null, c.description ? draft.description : null, narration]
    .filter((t): t is string => t !== null)
    .join('\n');
  const langWords = [
    ...(c.title && draft.title !== null ? words(draft.title, ctx.locale) : []),
    ...(c.description && draft.description !== null ? words(draft.description, ctx.locale) : []),
    ...sceneWords.flat(),
  ];
  const problem = languageProblem(c.language, langText, langWords);
  if (problem)
    out.push({ constraint: 'language', path: '', message: `the script is in the wrong language: ${problem}` });

  if (ctx.source) {
    const fields: [string, readonly string[] | null][] = [
      ['title', c.title && draft.title !== null ? words(draft.title, ctx.locale) : null],
      ['description', c.description && draft.description !== null ? words(draft.description, ctx.locale) : null],
      ...sceneWords.map((w, i): [string, readonly string[]] => [`scenes[${i}].voiceText`, w]),
    ];
    for (const [path, tokens] of fields) {
      if (tokens === null) continue;
      const run = findVerbatimRunInWords(ctx.source, tokens);
      if (run) {
        out.push({
          constraint: 'verbatim',
          path,
          message: `${path} copies ${run.words} consecutive words of the source material ("${run.excerpt}"); say it in your own words`,
        });
      }
    }
  }
  return out;
}

/**
 * True when the prompt already carries the style: every word of the style appears in the prompt,
 * in any order, so "watercolour, soft light" counts as present in "soft light, watercolour".
 */
function hasVisualStyle(prompt: string, style: string): boolean {
  const have = new Set(words(prompt));
  return words(style).every((w) => have.has(w));
}

/** Applies the visual style to a prompt that lacks it; prompts that carry it are left alone. */
export function applyVisualStyle(prompt: string, style: string | null): string {
  if (style === null || hasVisualStyle(prompt, style)) return prompt;
  const sep = /[.!?]$/.test(prompt) ? ' ' : '. ';
  return `${prompt}${sep}Style: ${style}`;
}

/** The accepted draft in resource form: nulls where not requested, 1-based indexes, style applied. */
export function finaliseDraft(
  draft: Draft,
  c: EnforcedConstraints,
): { title: string | null; description: string | null; scenes: ScriptScene[] } {
  return {
    title: c.title ? draft.title : null,
    description: c.description ? draft.description : null,
    scenes: draft.scenes.map((s, i) => ({
      index: i + 1,
      voiceText: s.voiceText,
      imagePrompt: c.imagePrompts && s.imagePrompt !== null ? applyVisualStyle(s.imagePrompt, c.visualStyle) : null,
    })),
  };
}
