/**
 * The output formats (a movie's `output.format`): their names and the one table of what each is
 * (the kind of render that makes it, the stored object's extension and Content-Type, whether it
 * can keep alpha). A format is added here and in worker/encode/ffmpeg-args.ts ENCODING (how it is
 * encoded): every table keyed by format is a `Record<OutputFormatName, ...>` with no default, so a
 * name added here makes the compiler name each table that lacks it. Read by the API (object keys,
 * the download's Content-Type, pricing), the worker and the Render resource, which carries a
 * render's format, decided once when it was created. Pure: no I/O.
 */

/** Every value of `output.format`, the default first. */
export const OUTPUT_FORMATS = ['mp4', 'webm', 'mov', 'gif', 'mp3', 'wav', 'png', 'jpeg', 'webp'] as const;

export type OutputFormatName = (typeof OUTPUT_FORMATS)[number];

export const DEFAULT_OUTPUT_FORMAT: OutputFormatName = 'mp4';

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

/** Whether `v` is the name of an output format. */
export const isOutputFormat = (v: unknown): v is OutputFormatName => typeof v === 'string' && Object.hasOwn(FORMATS, v);

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
