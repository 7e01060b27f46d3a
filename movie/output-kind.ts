/**
 * Output formats (the movie's `output.format`): the one table of what each format is, what the
 * stored object's extension and Content-Type are, and which kind of render makes it. The worker,
 * the object keys (lib/storage/keys.ts), the download route and the schema (movie/v1/output.ts)
 * all read it here, so a format is added in one place. Pure: no I/O.
 */

import { DEFAULT_OUTPUT_FORMAT, OUTPUT_FORMATS, type OutputFormatName } from '../lib/output-formats.ts';

export { DEFAULT_OUTPUT_FORMAT, OUTPUT_FORMATS, type OutputFormatName };

/** What a render of the format makes: frames (video), the mix alone (audio), or one frame (still). */
export type OutputKind = 'video' | 'audio' | 'still';

interface FormatInfo {
  kind: OutputKind;
  /** Of the stored object and of the download's filename, without the dot. */
  extension: string;
  contentType: string;
  /** Keeps an alpha channel when every scene's background is transparent (movie.md, Output formats). */
  alpha: boolean;
}

const FORMATS: Record<OutputFormatName, FormatInfo> = {
  mp4: { kind: 'video', extension: 'mp4', contentType: 'video/mp4', alpha: false },
  webm: { kind: 'video', extension: 'webm', contentType: 'video/webm', alpha: true },
  mov: { kind: 'video', extension: 'mov', contentType: 'video/quicktime', alpha: true },
  gif: { kind: 'video', extension: 'gif', contentType: 'image/gif', alpha: false },
  mp3: { kind: 'audio', extension: 'mp3', contentType: 'audio/mpeg', alpha: false },
  wav: { kind: 'audio', extension: 'wav', contentType: 'audio/wav', alpha: false },
  png: { kind: 'still', extension: 'png', contentType: 'image/png', alpha: true },
  jpeg: { kind: 'still', extension: 'jpg', contentType: 'image/jpeg', alpha: false },
  webp: { kind: 'still', extension: 'webp', contentType: 'image/webp', alpha: true },
};

const isFormat = (v: unknown): v is OutputFormatName => typeof v === 'string' && Object.hasOwn(FORMATS, v);

/** The format a (valid) movie asks for: its `output.format`, else mp4. */
export function movieOutputFormat(movie: unknown): OutputFormatName {
  const output = (movie as { output?: { format?: unknown } } | null | undefined)?.output;
  return isFormat(output?.format) ? output.format : DEFAULT_OUTPUT_FORMAT;
}

export function outputKind(format: OutputFormatName): OutputKind {
  return FORMATS[format].kind;
}

/** The stored object's extension, without the dot (jpeg is stored as .jpg). */
export function extension(format: OutputFormatName): string {
  return FORMATS[format].extension;
}

export function contentType(format: OutputFormatName): string {
  return FORMATS[format].contentType;
}

/** Whether the format can carry an alpha channel (mov: ProRes 4444, webm: VP9 yuva420p, png, webp). */
export function keepsAlpha(format: OutputFormatName): boolean {
  return FORMATS[format].alpha;
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
