import { existsSync, writeFileSync } from 'node:fs';
import { posterKey, thumbnailKey } from '../lib/storage/keys.ts';
import type { ObjectStore } from '../lib/storage/object-store.ts';
import { encodeImage, encodeThumbnail, rgbFrameOfVideo } from './still-image.ts';

/** Where a render's poster and thumbnail are written beside its output file (the executors upload them). */
export function posterFiles(output: string): { poster: string; thumbnail: string } {
  return { poster: `${output}.poster.jpg`, thumbnail: `${output}.thumbnail.webp` };
}

/** A video's poster time (`output.posterTime`, default 0: the first frame, as Remotion and Shotstack do). */
export function posterTime(movie: unknown): number {
  const time = (movie as { output?: { posterTime?: unknown } } | null)?.output?.posterTime;
  return typeof time === 'number' ? time : 0;
}

/**
 * A finished video's poster (JPEG, full frame) and thumbnail (WebP, 320 px on the long side) at
 * `timeSec`: the frame decoded from the finished file (one seek, one GOP decoded) rather than
 * caught during the frame loop, so every path makes it the same way: frames drawn here or
 * composited by ffmpeg, one machine or the join pod of a render spread over pods. A time past the
 * end (a movie timed by its voice, whose length validation could not know) gives the last frame.
 */
export async function writePosterImages(
  ffmpeg: string,
  video: string,
  timeSec: number,
  frame: { width: number; height: number; fps: number; totalFrames: number },
  files: { poster: string; thumbnail: string },
  signal?: AbortSignal,
): Promise<void> {
  const rgb = await rgbFrameOfVideo(ffmpeg, video, timeSec, frame, signal);
  writeFileSync(files.poster, await encodeImage(rgb, 'jpeg'));
  writeFileSync(files.thumbnail, await encodeThumbnail(rgb));
}

/**
 * Stores the poster and thumbnail written beside `output` (those that exist: a still has a
 * thumbnail only, an audio render neither) under the render's keys (lib/storage/keys.ts).
 */
export async function storePosterImages(objects: ObjectStore, renderId: string, output: string): Promise<void> {
  const files = posterFiles(output);
  if (existsSync(files.poster)) await objects.putFile(posterKey(renderId), files.poster, 'image/jpeg');
  if (existsSync(files.thumbnail)) await objects.putFile(thumbnailKey(renderId), files.thumbnail, 'image/webp');
}
