/**
 * A movie's output format: the one reading of its `output.format` (movieOutputFormat, at the
 * render's creation; after that the render carries it) and whether its frames keep alpha. What
 * each format is: lib/output-formats.ts. Pure: no I/O.
 */

import { DEFAULT_OUTPUT_FORMAT, isOutputFormat, keepsAlpha, type OutputFormatName } from '../lib/output-formats.ts';

/** The format a (valid) movie asks for: its `output.format`, else mp4. */
export function movieOutputFormat(movie: unknown): OutputFormatName {
  const output = (movie as { output?: { format?: unknown } } | null | undefined)?.output;
  return isOutputFormat(output?.format) ? output.format : DEFAULT_OUTPUT_FORMAT;
}

/** A scene background that is fully transparent: "transparent" or #rrggbb00. */
const isTransparent = (c: unknown) => c === 'transparent' || (typeof c === 'string' && /^#[0-9a-fA-F]{6}00$/.test(c));

/**
 * Whether a render of the (valid) movie keeps an alpha channel: its format can carry one
 * (keepsAlpha: mov, webm, png, webp) and every scene's background is fully transparent. The one
 * place this is decided. Otherwise backgrounds are opaque: a transparent one is black, and a
 * format without alpha (mp4, gif, jpeg) shows a transparent movie over black.
 */
export function rendersAlpha(format: OutputFormatName, movie: unknown): boolean {
  const scenes = (movie as { scenes?: unknown } | null | undefined)?.scenes;
  return (
    keepsAlpha(format) &&
    Array.isArray(scenes) &&
    scenes.length > 0 &&
    scenes.every((s) => isTransparent((s as { background?: unknown } | null)?.background))
  );
}
