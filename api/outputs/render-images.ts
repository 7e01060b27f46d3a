import { type OutputFormatName, outputKind } from '../../lib/output-formats.ts';

/**
 * Which images a finished render of `format` has (docs/api.md, Stills, posters and thumbnails): a
 * video a poster and a thumbnail; a still a thumbnail (its output is the full image); an audio
 * render none. The render resource's links and the route that serves them both ask here.
 */
export function renderImages(format: OutputFormatName): { poster: boolean; thumbnail: boolean } {
  const kind = outputKind(format);
  return { poster: kind === 'video', thumbnail: kind !== 'audio' };
}
