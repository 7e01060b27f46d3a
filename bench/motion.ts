/**
 * The motion-graphics movie of `make bench-render` (examples/bench-60s-motion.json): its
 * green-screen clip, made here by ffmpeg (a moving test pattern on pure green, 640x360 at 30 fps,
 * BT.709), and the movie pointed at it.
 */
import type { Movie } from '../movie/index.ts';
import { QUIET } from '../worker/encode/ffmpeg-args.ts';
import { runFfmpeg } from '../worker/encode/ffmpeg-process.ts';

/** The address examples/bench-motion.ts writes for the keyed clip. */
const PLACEHOLDER = 'http://127.0.0.1/green-screen.mp4';

const MOVE = "x='220+160*sin(t*1.3)':y='80+40*cos(t*0.9)'";
const TO_709 = 'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p';

/** Writes the green-screen clip (10 s) to `file`. */
export async function greenScreenClip(ffmpeg: string, file: string): Promise<void> {
  await runFfmpeg(ffmpeg, [
    ...[...QUIET, '-y', '-f', 'lavfi', '-i', 'color=c=0x00ff00:s=640x360:r=30', '-f', 'lavfi'],
    ...['-i', 'testsrc2=s=200x200:r=30', '-t', '10'],
    // Composed in RGB, then converted with BT.709 as tagged: the key colour is exactly green.
    ...[
      '-filter_complex',
      `[0]format=rgb24[b];[1]format=rgb24[f];[b][f]overlay=${MOVE}:format=rgb:shortest=1,${TO_709}`,
    ],
    ...['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', file],
  ]);
}

/** `movie` with its keyed clips' placeholder replaced by `url`. */
export function withKeyedClip(movie: Movie, url: string): Movie {
  return {
    ...movie,
    scenes: movie.scenes.map((s) => ({
      ...s,
      elements: s.elements.map((e) => (e.type === 'video' && e.src === PLACEHOLDER ? { ...e, src: url } : e)),
    })),
  };
}
