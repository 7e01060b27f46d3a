import { existsSync } from 'node:fs';
import { posterKey, thumbnailKey } from './storage/keys.ts';
import type { ObjectStore } from './storage/object-store.ts';

/**
 * A finished render's poster and thumbnail files (docs/api.md, posterUrl and thumbnailUrl): the
 * worker writes them beside its output (worker/encode/poster.ts, worker/run/still.ts) and whoever stores the
 * output stores them with it: the executor of one machine, the worker or join pod of a cluster.
 * Kept free of the renderer's imports, for the API's executor.
 */

/** Where a render's poster (JPEG) and thumbnail (WebP) are written beside its output file. */
export function posterFiles(output: string): { poster: string; thumbnail: string } {
  return { poster: `${output}.poster.jpg`, thumbnail: `${output}.thumbnail.webp` };
}

/**
 * Stores the poster and thumbnail written beside `output` (those that exist: a video has both, a
 * still its thumbnail only, an audio render neither) under the render's keys (lib/storage/keys.ts).
 */
export async function storePosterImages(objects: ObjectStore, renderId: string, output: string): Promise<void> {
  const files = posterFiles(output);
  if (existsSync(files.poster)) await objects.putFile(posterKey(renderId), files.poster, 'image/jpeg');
  if (existsSync(files.thumbnail)) await objects.putFile(thumbnailKey(renderId), files.thumbnail, 'image/webp');
}
