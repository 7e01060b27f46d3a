import type { CompositeChunk, OverlayTrack } from '../plan/composite-plan.ts';
import { clipFilter, SOURCE_TIME_SLACK, type VideoSourcePlan } from '../plan/video-source.ts';
import { chunkOutputArgs, QUIET, type VideoSettings } from './ffmpeg-args.ts';

/**
 * The timestamps of a track's images, as a `setpts` expression of the image's number N, in ticks
 * of half a frame: each run's image from half a frame before its first frame (the first from the
 * chunk's start), so no rounding can show it a frame early or late. The overlay filter holds the
 * last image to the end of the chunk.
 */
export function overlayTimes(track: OverlayTrack): string {
  let at = track.first;
  const terms: string[] = [];
  track.runs.forEach((run, i) => {
    if (i > 0) terms.push(`${2 * at - 1}*eq(N,${i})`);
    at += run.frames;
  });
  return terms.length ? terms.join('+') : '0';
}

export interface CompositeSources {
  /** A backdrop run's clip: what the renderer's decoder gets for it. */
  clip: (layer: number) => VideoSourcePlan;
  /** Each track's images, in the chunk's track order: one raw yuva420p file, an image per run. */
  images: string[];
}

/**
 * The ffmpeg command that composites and encodes one chunk into `output`: the backdrop runs,
 * each decoded from the keyframe before it and cut to its frames, joined, the tracks laid over
 * them in draw order, encoded with the render's settings (the same bytes the raw-frame encoder
 * writes for the same frames).
 */
export function compositeArgs(
  chunk: CompositeChunk,
  sources: CompositeSources,
  v: VideoSettings,
  output: string,
): string[] {
  const inputs: string[] = [];
  const graph: string[] = [];
  chunk.runs.forEach((run, i) => {
    const clip = sources.clip(run.layer);
    if (run.sec > 0) inputs.push('-noaccurate_seek', '-ss', run.sec.toFixed(6));
    // One decoding thread: two chunks' processes run at once, each with its encoder's threads;
    // frame threads would add their frames of memory for no speed here.
    inputs.push('-threads', '1', '-i', clip.file);
    // Output slot k holds the latest frame at or before the run's time + k / fps (see the top).
    // No aspect ratio (`setsar=0/1`), as the raw frames the other chunk encoder reads have none:
    // x264 writes it into the stream's header, which must be the same for every chunk.
    const keep = run.held ? 1 : run.frames;
    graph.push(
      `[${i}:v]${clipFilter(clip)},setsar=0/1,settb=expr=intb/${v.fps},` +
        `setpts=PTS-floor(${(clip.startSec + run.sec + SOURCE_TIME_SLACK).toFixed(9)}/TB),` +
        `fps=fps=${v.fps}:start_time=0:round=up,trim=end_frame=${keep},` +
        // A clip ending before its run (or one held frame) is held to the run's length.
        `tpad=stop_mode=clone:stop=${run.frames},trim=end_frame=${run.frames},setpts=N/(${v.fps}*TB)[r${i}]`,
    );
  });
  const runLabels = chunk.runs.map((_, i) => `[r${i}]`).join('');
  let main = 'm0';
  graph.push(
    chunk.runs.length === 1
      ? `${runLabels}null[${main}]`
      : `${runLabels}concat=n=${chunk.runs.length}:v=1:a=0[${main}]`,
  );
  chunk.tracks.forEach((track, i) => {
    const input = chunk.runs.length + i;
    const { rect } = track;
    inputs.push(
      ...['-f', 'rawvideo', '-pix_fmt', 'yuva420p', '-s', `${rect.width}x${rect.y1 - rect.y0}`],
      ...['-framerate', '1', '-i', sources.images[i]!],
    );
    const from = ((track.first - 0.5) / v.fps).toFixed(6);
    const to = ((track.end - 0.5) / v.fps).toFixed(6);
    graph.push(
      `[${input}:v]settb=1/${2 * v.fps},setpts='${overlayTimes(track)}'[o${i}]`,
      // Outside its frames the layer is placed past the right edge, where nothing is blended (the
      // filter's `enable` is judged by whichever input's frame came last, not by the main one's).
      `[${main}][o${i}]overlay=x='if(between(t,${from},${to}),${rect.x0},W)':y=${rect.y0}:` +
        `format=yuv420:eof_action=repeat:eval=frame[m${i + 1}]`,
    );
    main = `m${i + 1}`;
  });
  graph.push(`[${main}]format=yuv420p[out]`);
  return [
    ...QUIET,
    '-y',
    '-copyts',
    ...inputs,
    '-filter_complex',
    graph.join(';'),
    '-map',
    '[out]',
    '-fps_mode',
    'passthrough',
    '-frames:v',
    String(chunk.range.to - chunk.range.from),
    ...chunkOutputArgs(v, output),
  ];
}
