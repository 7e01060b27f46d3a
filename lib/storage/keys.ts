/**
 * Object-store keys: the one module that spells them. Every object the product stores is under one
 * of these prefixes, relative to the store's root (the S3 adapter's S3_PREFIX goes in front of all
 * of them, the local adapter's DATA_DIR/objects likewise). docs/operations.md lists them.
 *
 * | key                 | written by                                   | removed by                           |
 * |---------------------|----------------------------------------------|--------------------------------------|
 * | `renders/<id>.<ext>`| the executor (one machine), the worker pod   | the output sweeper, past retention   |
 * | `posters/<id>.jpg`  | with the output, by whoever stores it        | the output sweeper, with the output  |
 * | `thumbnails/<id>.webp` | with the output, by whoever stores it     | the output sweeper, with the output  |
 * | `movies/<id>.json`  | the Kubernetes executor (the Render's movie) | the work sweeper, once it finished   |
 * | `assets/<id>.<ext>` | POST /v1/assets                              | DELETE /v1/assets/{id}               |
 * | `work/<id>/<name>`  | the prepare and segment pods                 | the join pod, or the output sweeper  |
 */

/**
 * A render's finished output. `extension` is its format's (lib/output-formats.ts `extension`: mp4,
 * webm, mov, gif, mp3, wav, png, jpg, webp), without the dot; the download route takes the
 * format, so the Content-Type and the filename, back from it.
 */
export function outputKey(renderId: string, extension = 'mp4'): string {
  return `renders/${segment(renderId, 'render id')}.${checkedExtension(extension)}`;
}

/** A video render's poster: a JPEG of the frame at `output.posterTime`, full frame size (worker/encode/poster.ts). */
export function posterKey(renderId: string): string {
  return `posters/${segment(renderId, 'render id')}.jpg`;
}

/** A finished video or still render's thumbnail: a WebP, 320 px on the long side (worker/encode/poster.ts). */
export function thumbnailKey(renderId: string): string {
  return `thumbnails/${segment(renderId, 'render id')}.webp`;
}

/** A render's resolved movie document, for the worker pod (its Render carries the key). */
export function movieKey(renderId: string): string {
  return `movies/${segment(renderId, 'render id')}.json`;
}

/** An uploaded asset's bytes; `extension` is the sniffed type's (png, mp4, ...), without the dot. */
export function assetKey(assetId: string, extension: string): string {
  return `assets/${segment(assetId, 'asset id')}.${checkedExtension(extension)}`;
}

function checkedExtension(extension: string): string {
  if (!/^[a-z0-9]+$/.test(extension)) throw new Error(`Not an object-key extension: ${JSON.stringify(extension)}`);
  return extension;
}

/** Everything of a render spread over pods (lib/render-work.ts) is under this prefix. */
export function workPrefix(renderId: string): string {
  return `work/${segment(renderId, 'render id')}/`;
}

/** One work object of a render: `name` is relative to its work prefix and may have folders. */
export function workKey(renderId: string, name: string): string {
  const parts = name.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`Not a work object name: ${JSON.stringify(name)}`);
  }
  return workPrefix(renderId) + name;
}

/** An id used as one path segment: never empty, never a folder of its own, never outside its prefix. */
function segment(id: string, what: string): string {
  if (id === '' || id === '.' || id === '..' || id.includes('/')) {
    throw new Error(`The ${what} ${JSON.stringify(id)} cannot name an object key`);
  }
  return id;
}
