/**
 * Cross-field rules of v1, run after an object's own fields were walked. They see the raw value,
 * so each one checks the types it relies on; a value deferred to resolution ({{x}} in template
 * mode) is skipped here and checked once resolved.
 */
import { isPlainObject } from '../describe.ts';
import { coerceVariable, VARIABLE_TYPES, type VariableType } from '../variables.ts';
import { ESPEAK_LANGUAGES, espeakVoiceFor, voiceById, voiceSpeaks } from '../voices.ts';
import type { Rule } from '../walk/compile.ts';
import { isDeferred, report, reportAt, type WalkContext } from '../walk/context.ts';
import { motionRule } from './motion.ts';
import { outputRule } from './output-rule.ts';
import { DEFAULT_TRANSITION_SEC, LIMITS, TEXT_DEFAULT_FONT_SIZE } from './schema.ts';
import { shapeRule } from './shape.ts';

/** Seconds of slack when comparing element ends with scene ends (float sums like 0.1 + 0.2). */
const EPSILON = 1e-9;

const present = (o: Record<string, unknown>, key: string) => Object.hasOwn(o, key) && o[key] !== undefined;
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function sizeRule(doc: Record<string, unknown>, ctx: WalkContext): void {
  const preset = present(doc, 'preset');
  const width = present(doc, 'width');
  const height = present(doc, 'height');
  if (preset && (width || height)) {
    report(
      ctx,
      'VALIDATION_ERROR',
      'give either preset (with an optional resolution) or width and height, not both',
      width ? 'width' : 'height',
    );
  } else if (!preset && !width && !height) {
    report(
      ctx,
      'VALIDATION_ERROR',
      'the frame size is missing: give preset (with an optional resolution) or width and height',
      'preset',
    );
  } else if (!preset && width !== height) {
    report(
      ctx,
      'VALIDATION_ERROR',
      `width and height go together; ${width ? 'height' : 'width'} is missing`,
      width ? 'height' : 'width',
    );
  }
  if (present(doc, 'resolution') && !preset)
    report(ctx, 'VALIDATION_ERROR', 'resolution applies only together with preset', 'resolution');
}

function uniqueIds(doc: Record<string, unknown>, ctx: WalkContext): void {
  const scenes = asArray(doc.scenes);
  const sceneIds = new Map<string, number>();
  // First use of each element id as scene * 64 + element: no allocation per element on the happy path.
  const elementIds = new Map<string, number>();
  for (let i = 0; i < scenes.length && i < 500; i++) {
    const scene = scenes[i];
    if (!isPlainObject(scene)) continue;
    const id = scene.id;
    if (typeof id === 'string' && !isDeferred(ctx, id)) {
      const first = sceneIds.get(id);
      if (first === undefined) sceneIds.set(id, i);
      else
        reportAt(ctx, 'SCENE_ID_DUPLICATE', `scene id "${id}" is already used by scenes[${first}]`, [
          'scenes',
          i,
          'id',
        ]);
    }
    const elements = asArray(scene.elements);
    for (let j = 0; j < elements.length && j < 50; j++) {
      const el = elements[j];
      if (!isPlainObject(el) || typeof el.id !== 'string' || isDeferred(ctx, el.id)) continue;
      const first = elementIds.get(el.id);
      if (first === undefined) elementIds.set(el.id, i * 64 + j);
      else
        reportAt(
          ctx,
          'ELEMENT_ID_DUPLICATE',
          `element id "${el.id}" is already used by scenes[${Math.floor(first / 64)}].elements[${first % 64}]`,
          ['scenes', i, 'elements', j, 'id'],
        );
    }
  }
}

/**
 * A transition overlaps its scene with the previous one: it may not last longer than its own
 * scene, nor than what the previous scene has left after its own incoming transition (so at
 * most two scenes are on screen at once). Checked where both durations are numbers; the renderer
 * cuts transitions of "voice" and "video" scenes by the same rule (movie/timeline.ts).
 */
function transitionsRule(doc: Record<string, unknown>, ctx: WalkContext): void {
  const scenes = asArray(doc.scenes);
  let prevSec: number | undefined;
  let prevIncoming = 0;
  for (let i = 0; i < scenes.length && i < LIMITS.scenes; i++) {
    const scene = scenes[i];
    if (!isPlainObject(scene)) {
      prevSec = undefined;
      continue;
    }
    const d = scene.duration;
    const sec = typeof d === 'number' && d > 0 && d <= LIMITS.sceneSeconds ? d : undefined;
    const t = scene.transition;
    let incoming = 0;
    if (isPlainObject(t)) {
      if (i === 0) {
        reportAt(
          ctx,
          'VALIDATION_ERROR',
          'the first scene has no scene before it to transition from; remove transition',
          ['scenes', 0, 'transition'],
        );
      } else {
        const raw = t.duration === undefined ? DEFAULT_TRANSITION_SEC : t.duration;
        if (typeof raw === 'number' && raw > 0 && raw <= LIMITS.transitionSeconds) {
          incoming = raw;
          const at = ['scenes', i, 'transition', ...(t.duration === undefined ? [] : ['duration'])];
          if (sec !== undefined && raw > sec + EPSILON)
            reportAt(ctx, 'VALIDATION_ERROR', `the transition (${raw} s) is longer than its scene (${sec} s)`, at);
          else if (prevSec !== undefined && raw > prevSec - prevIncoming + EPSILON)
            reportAt(
              ctx,
              'VALIDATION_ERROR',
              `the transition (${raw} s) is longer than what scenes[${i - 1}] shows after its own transition (${prevSec - prevIncoming} s); shorten one of them`,
              at,
            );
        }
      }
    }
    prevSec = sec;
    prevIncoming = incoming;
  }
}

/** subtitles `from: "soundtrack"` needs the movie's soundtrack. */
function soundtrackFromRule(doc: Record<string, unknown>, ctx: WalkContext): void {
  if (present(doc, 'soundtrack')) return;
  asArray(doc.scenes).forEach((scene, i) => {
    if (!isPlainObject(scene)) return;
    asArray(scene.elements).forEach((el, j) => {
      if (isPlainObject(el) && el.type === 'subtitles' && el.from === 'soundtrack')
        reportAt(
          ctx,
          'VALIDATION_ERROR',
          'from "soundtrack" captions the movie\'s soundtrack, and this movie has none; add a soundtrack or name an audio or video element of the scene',
          ['scenes', i, 'elements', j, 'from'],
        );
    });
  });
}

const movie: Rule = (doc, ctx) => {
  sizeRule(doc, ctx);
  soundtrackFromRule(doc, ctx);
  uniqueIds(doc, ctx);
  transitionsRule(doc, ctx);
  outputRule(doc, ctx);
};

const scene: Rule = (s, ctx) => {
  const all = asArray(s.elements);
  let hasVoice = false;
  let hasVideo = false;
  for (const e of all) {
    if (isPlainObject(e) && e.type === 'voice') hasVoice = true;
    if (isPlainObject(e) && e.type === 'video') hasVideo = true;
  }
  if (s.duration === 'video' && !hasVideo) {
    report(
      ctx,
      'VALIDATION_ERROR',
      'duration "video" needs a video element in the scene; add one or give the duration in seconds',
      'duration',
    );
  }
  if (s.duration === 'voice' && !hasVoice) {
    report(
      ctx,
      'VALIDATION_ERROR',
      'duration "voice" needs a voice element in the scene; add one or give the duration in seconds',
      'duration',
    );
  }
  // Element timing is compared only with a valid duration; an invalid one is reported by itself.
  const d = s.duration;
  const sceneSec = typeof d === 'number' && d > 0 && d <= LIMITS.sceneSeconds ? d : undefined;
  for (let j = 0; j < all.length && j < 50; j++) {
    const el = all[j];
    if (!isPlainObject(el)) continue;
    if (
      el.type === 'subtitles' &&
      typeof el.from === 'string' &&
      el.from !== 'soundtrack' &&
      !isDeferred(ctx, el.from)
    ) {
      const target = all.find((o) => isPlainObject(o) && o.id === el.from);
      if (!isPlainObject(target) || (target.type !== 'audio' && target.type !== 'video')) {
        report(
          ctx,
          'VALIDATION_ERROR',
          `from names the audio or video element to transcribe, and this scene has no such element with id "${el.from}"${isPlainObject(target) ? ` (it is a ${String(target.type)} element)` : ''}; give the id of an audio or video element of the scene`,
          'elements',
          j,
          'from',
        );
      }
    }
    if (el.type === 'subtitles' && !hasVoice && el.src === undefined && el.from === undefined) {
      report(
        ctx,
        'VALIDATION_ERROR',
        "subtitles caption the scene's voice elements, and this scene has none; add a voice element, give the subtitles an SRT or WebVTT file as src, or an audio or video element to transcribe as from",
        'elements',
        j,
      );
    }
    if (sceneSec === undefined) continue;
    const start = typeof el.start === 'number' && el.start >= 0 ? el.start : 0;
    if (typeof el.start === 'number' && el.start >= sceneSec) {
      report(
        ctx,
        'VALIDATION_ERROR',
        `start must be before the scene ends at ${sceneSec} s; got ${el.start}`,
        'elements',
        j,
        'start',
      );
    } else if (typeof el.duration === 'number' && el.duration > 0 && start + el.duration > sceneSec + EPSILON) {
      report(
        ctx,
        'VALIDATION_ERROR',
        `the element would end at ${start + el.duration} s, after the scene ends at ${sceneSec} s; shorten duration or start earlier`,
        'elements',
        j,
        'duration',
      );
    }
  }
};

/** A number the schema accepts for fontSize and autoFit.minFontSize (others are reported by the schema). */
const validFontSize = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 1 && v <= 1000;

/**
 * autoFit (text): it shrinks fontSize towards minFontSize until the text fits maxHeight and
 * maxLines, so it needs one of them, and minFontSize may not be above the element's fontSize.
 * A deferred or invalid size is not compared here (the schema or the resolved check reports it).
 */
function autoFitRule(el: Record<string, unknown>, ctx: WalkContext): void {
  const fit = el.autoFit;
  if (!isPlainObject(fit)) return;
  if (!present(el, 'maxHeight') && !present(el, 'maxLines'))
    report(
      ctx,
      'VALIDATION_ERROR',
      'autoFit has nothing to fit the text into: give maxHeight or maxLines (or both), or remove autoFit',
      'autoFit',
    );
  const min = fit.minFontSize;
  const size = present(el, 'fontSize') ? el.fontSize : TEXT_DEFAULT_FONT_SIZE;
  if (validFontSize(min) && validFontSize(size) && min > size)
    report(
      ctx,
      'VALIDATION_ERROR',
      `autoFit.minFontSize (${min}) is above the fontSize it shrinks from (${size}${present(el, 'fontSize') ? '' : ', the default'}); lower minFontSize or raise fontSize`,
      'autoFit',
      'minFontSize',
    );
}

const element: Rule = (el, ctx) => {
  motionRule(el, ctx);
  if (el.type === 'text') return autoFitRule(el, ctx);
  if (el.type === 'shape') return shapeRule(el, ctx);
  if (el.type === 'subtitles') {
    if (present(el, 'src') && present(el, 'from'))
      report(
        ctx,
        'VALIDATION_ERROR',
        'give either src (a subtitle file) or from (an element to transcribe), not both',
        'from',
      );
    if (present(el, 'language') && !present(el, 'from'))
      report(
        ctx,
        'VALIDATION_ERROR',
        'language is the language of the sound transcribed for from; give from, or drop language',
        'language',
      );
    if (present(el, 'src') && present(el, 'style') && el.style !== 'lines')
      report(
        ctx,
        'VALIDATION_ERROR',
        `style "${String(el.style)}" needs word times, and a subtitle file (src) has none: its cues are shown as lines; drop style or give "lines"`,
        'style',
      );
    if (present(el, 'backgroundColor') && present(el, 'background'))
      report(
        ctx,
        'VALIDATION_ERROR',
        'give either backgroundColor or background, not both: backgroundColor is shorthand for background: {color}; move the colour into background.color',
        'backgroundColor',
      );
    return;
  }
  if (el.type !== 'voice') return;
  const voice = typeof el.voiceId === 'string' ? voiceById(el.voiceId) : undefined;
  if (typeof el.language !== 'string' || isDeferred(ctx, el.language)) return;
  if (!/^[a-z]{2,3}(-[A-Z]{2})?$/.test(el.language)) return; // already reported by the pattern
  if (voice) {
    if (!voiceSpeaks(voice, el.language))
      report(
        ctx,
        'VALIDATION_ERROR',
        `language "${el.language}" does not match voice "${voice.id}", which speaks ${voice.language}; drop language or pick a voice for it`,
        'language',
      );
  } else if (el.voiceId === undefined && !espeakVoiceFor(el.language)) {
    report(
      ctx,
      'VALIDATION_ERROR',
      `no offline voice speaks "${el.language}"; use one of ${ESPEAK_LANGUAGES.join(', ')}, or an openai-* voiceId`,
      'language',
    );
  }
};

const variable: Rule = (decl, ctx) => {
  const type = decl.type as VariableType;
  if (!VARIABLE_TYPES.includes(type)) return;
  const hasOptions = present(decl, 'options');
  const options = Array.isArray(decl.options) ? decl.options.filter((o): o is string => typeof o === 'string') : [];
  if (type === 'enum' && !hasOptions) {
    report(
      ctx,
      'VALIDATION_ERROR',
      'an enum variable needs options: a non-empty list of the allowed strings',
      'options',
    );
  } else if (type !== 'enum' && hasOptions) {
    report(ctx, 'VALIDATION_ERROR', `options apply only to variables of type enum; this one is ${type}`, 'options');
  }
  if (type === 'enum' && Array.isArray(decl.options)) {
    const seen = new Set<unknown>();
    decl.options.forEach((o, i) => {
      if (seen.has(o)) report(ctx, 'VALIDATION_ERROR', `option ${JSON.stringify(o)} is listed twice`, 'options', i);
      seen.add(o);
    });
  }
  if (present(decl, 'default')) {
    const d = decl.default;
    if (typeof d !== 'string' && typeof d !== 'number' && typeof d !== 'boolean') return; // type already reported
    if (type === 'enum' && options.length === 0) return;
    const coerced = coerceVariable({ type, options }, d);
    if (!coerced.ok)
      report(ctx, 'VALIDATION_ERROR', `default does not match type ${type}: ${coerced.message}`, 'default');
  }
};

export const RULES_V1: Record<string, Rule> = { movie, scene, element, variable };
