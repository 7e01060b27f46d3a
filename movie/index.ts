/**
 * The movie document library: schema versions, validation, placeholders and variables, output
 * format, duration estimates and timeline maths. Pure: no I/O. Import only from this file.
 */
export type { Finding } from '../lib/errors.ts';
export { ANIMATION_PRESETS, type AnimationPreset, DEFAULT_ANIMATION_SEC } from './animations.ts';
export { CSS_COLOR_NAMES, isColor } from './colors.ts';
export { countWords, estimateDurationSec, estimateSceneSec, VOICE_TAIL_SEC, WORDS_PER_MINUTE } from './duration.ts';
export { DEFAULT_FONT, FONT_FAMILIES } from './fonts.ts';
export { movieJsonSchema } from './json-schema.ts';
export { DEFAULT_FPS, DEFAULT_RESOLUTION, type OutputFormat, outputFormat } from './output-format.ts';
export type { Result } from './result.ts';
export {
  buildTimeline,
  type Timeline,
  type TimelineScene,
  type TransitionType,
  transitionOverlaps,
} from './timeline.ts';
export type {
  AudioElementV1 as AudioElement,
  AutoFitV1 as AutoFit,
  ElementV1 as Element,
  ImageElementV1 as ImageElement,
  SceneV1 as Scene,
  SoundtrackV1 as Soundtrack,
  SubtitlesElementV1 as SubtitlesElement,
  TextBackgroundV1 as TextBackground,
  TextElementV1 as TextElement,
  TextShadowV1 as TextShadow,
  TextStrokeV1 as TextStroke,
  TransitionV1 as Transition,
  VideoElementV1 as VideoElement,
  VoiceElementV1 as VoiceElement,
} from './v1/schema.ts';
export {
  DEFAULT_BOX_PADDING_EM,
  DEFAULT_DUCKING,
  DEFAULT_SHADOW,
  DEFAULT_TRANSITION_SEC,
  ELLIPSIS,
  LIMITS,
  TEXT_DEFAULT_FONT_SIZE,
  TEXT_STYLE_LIMITS,
  TRANSITION_TYPES,
} from './v1/schema.ts';
export { MAX_FINDINGS, type Movie, resolveMovie, validateMovie, validateTemplate } from './validate.ts';
export { coerceVariable, type VariableDecl, type VariableType, type VariableValue } from './variables.ts';
export { SCHEMA_VERSIONS } from './versions.ts';
export { DEFAULT_LANGUAGE, defaultVoiceFor, VOICES, type VoiceInfo, voiceById } from './voices.ts';
