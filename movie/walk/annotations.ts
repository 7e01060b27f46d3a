import type { ErrorCode } from '../../lib/errors.ts';

/** Custom value checks a compiled schema node can name; each returns the problem text or undefined. */
export type CheckName = 'color' | 'font' | 'media-url' | 'http-url' | 'voice-id' | 'easing';

/**
 * What a schema node says beyond JSON Schema, under the `x-fw` key (stripped from the export).
 * `rule` names a cross-field rule run after the object's own fields; `emptyCode` is the finding
 * code of an empty array; `noPlaceholder` turns off {{placeholder}} scanning for the subtree.
 */
export interface FwAnnotations {
  check?: CheckName;
  rule?: string;
  emptyCode?: ErrorCode;
  /** What to do about an empty array, for its message. */
  emptyText?: string;
  noPlaceholder?: boolean;
  discriminator?: string;
  /** Human form of `pattern` for messages. */
  patternText?: string;
  /** Human form of what a union accepts, for type messages. */
  expect?: string;
  /** Human form of a record's key pattern. */
  keyText?: string;
  /** What the docs call this kind of value ("scene", "element"). */
  docName?: string;
  /** A default that is not a JSON value (for docs), e.g. "until the scene ends". */
  docDefault?: string;
}

export function annotations(schema: unknown): FwAnnotations {
  return ((schema as Record<string, unknown>)['x-fw'] as FwAnnotations | undefined) ?? {};
}
