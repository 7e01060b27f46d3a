/**
 * Pieces the movie schema's modules share (schema.ts and the modules it imports: effects, motion,
 * output, shape), so none of them repeats another's: the `x-fw` annotation, a colour, a choice of
 * string literals, and the document's limits. Here rather than in schema.ts, which imports those
 * modules.
 */
import { Type } from '@sinclair/typebox';
import { COLOR_PATTERN } from '../colors.ts';
import type { FwAnnotations } from '../walk/annotations.ts';

export const fw = (a: FwAnnotations) => ({ 'x-fw': a });

export const LIMITS = {
  scenes: 500,
  elementsPerScene: 50,
  idLength: 64,
  textLength: 5000,
  urlLength: 2048,
  dataUriLength: 1_000_000,
  variables: 100,
  variableNameLength: 64,
  descriptionLength: 500,
  enumOptions: 100,
  optionLength: 200,
  sceneSeconds: 3600,
  pixels: 8192,
  /** Seconds into a media source (trimStart) and seconds of it played (trimDuration). */
  mediaSeconds: 86400,
  /** Linear gain of a video's or an audio source's sound: 1 as recorded, 2 twice as loud. */
  volume: 4,
  fadeSeconds: 60,
  transitionSeconds: 5,
} as const;

export const Color = (description: string, def?: string) =>
  Type.String({
    pattern: COLOR_PATTERN,
    description,
    ...(def === undefined ? {} : { default: def }),
    ...fw({ check: 'color' }),
  });

export const Literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
