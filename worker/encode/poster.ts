import { writeFileSync } from 'node:fs';
import { encodeImage, encodeThumbnail, rgbFrameOfVideo } from './still-image.ts';

export { posterFiles, storePosterImages } from '../../lib/render-images.ts';

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
