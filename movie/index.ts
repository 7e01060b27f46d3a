/**
 * The movie document library: schema versions, validation, placeholders and variables, output
 * format, duration estimates and timeline maths. Pure: no I/O. Import only from this file.
 */

export { ANIMATION_PRESETS } from './animations.ts';
export { CSS_COLOR_NAMES } from './colors.ts';
export { estimateDurationSec, VOICE_TAIL_SEC, WORDS_PER_MINUTE } from './duration.ts';
export { DEFAULT_FONT, FONT_FAMILIES } from './fonts.ts';
export { movieJsonSchema } from './json-schema.ts';
export { type OutputFrame, outputFrame } from './output-frame.ts';

export {
  buildTimeline,
  type Timeline,
  type TransitionType,
  transitionOverlaps,
} from './timeline.ts';
export type {
  ElementV1 as Element,
  SubtitlesElementV1 as SubtitlesElement,
  TextElementV1 as TextElement,
  VoiceElementV1 as VoiceElement,
} from './v1/schema.ts';
export {
  DEFAULT_BOX_PADDING_EM,
  DEFAULT_DUCKING,
  DEFAULT_LOUDNESS,
  DEFAULT_SHADOW,
  ELLIPSIS,
  LIMITS,
  TEXT_DEFAULT_FONT_SIZE,
} from './v1/schema.ts';
export { MAX_FINDINGS, type Movie, resolveMovie, validateMovie, validateTemplate } from './validate.ts';
export { coerceVariable, type VariableType } from './variables.ts';
export { SCHEMA_VERSIONS } from './versions.ts';
export { DEFAULT_LANGUAGE, defaultVoiceFor, VOICES, type VoiceInfo, voiceById } from './voices.ts';
