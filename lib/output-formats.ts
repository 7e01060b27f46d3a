/**
 * The names of the output formats (a movie's `output.format`): the key of every table keyed by
 * format (movie/output-kind.ts for what each is; worker/encode/ffmpeg-args.ts for how each is
 * encoded), each a `Record<OutputFormatName, ...>`, so a name added here makes the compiler name
 * every table that lacks it. Here in lib/ because the Render resource (lib/kube/render-resource.ts)
 * carries a render's format, decided once when the render was created.
 */

/** Every value of `output.format`, the default first. */
export const OUTPUT_FORMATS = ['mp4', 'webm', 'mov', 'gif', 'mp3', 'wav', 'png', 'jpeg', 'webp'] as const;

export type OutputFormatName = (typeof OUTPUT_FORMATS)[number];

export const DEFAULT_OUTPUT_FORMAT: OutputFormatName = 'mp4';
