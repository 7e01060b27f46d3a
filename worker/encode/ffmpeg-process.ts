import type { ChildProcess } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { AppError } from '../../lib/errors.ts';
import type { OutputFormatName } from '../../lib/output-formats.ts';
import { runMediaTool, startMediaTool } from '../../lib/process/ffmpeg-runner.ts';
import { concatList, finalMuxArgs, framesOf, gifArgs } from './ffmpeg-args.ts';

/** Runs ffmpeg/ffprobe to completion (lib/process/ffmpeg-runner.ts); resolves with stdout. */
export function runFfmpeg(bin: string, args: string[], signal?: AbortSignal): Promise<Buffer> {
  return runMediaTool(bin, args, { signal });
}

/** A running encoder fed raw frames through stdin. */
export interface FrameSink {
  /**
   * Writes one frame. Resolves once the bytes are handed to the pipe, so the caller may then
   * overwrite its buffer; waiting here is what makes a slow encoder slow the renderer down
   * (back-pressure) instead of piling frames up in memory.
   */
  write(frame: Uint8Array): Promise<void>;
  /** Closes stdin and waits for ffmpeg to finish the file. */
  end(): Promise<void>;
  child: ChildProcess;
}

export function startEncoder(bin: string, args: string[], signal?: AbortSignal): FrameSink {
  const { child, done } = startMediaTool(bin, args, { stdin: 'pipe', signal });
  const stdin = child.stdin!;
  // An encoder that dies mid-stream shows up as EPIPE on stdin; the exit status and stderr come
  // through `done`, which is what we report.
  stdin.on('error', () => {});
  return {
    child,
    write(frame) {
      return new Promise<void>((resolve, reject) => {
        if (child.exitCode !== null || stdin.destroyed) {
          done.then(
            () => reject(new AppError('RENDER_FAILED', 'ffmpeg exited before all frames were written')),
            reject,
          );
          return;
        }
        stdin.write(frame, (err) => {
          if (!err) return resolve();
          done.then(() => reject(new AppError('RENDER_FAILED', `writing to ffmpeg failed: ${err.message}`)), reject);
        });
      });
    },
    async end() {
      stdin.end();
      await done;
    },
  };
}

/**
 * Joins MP4 files into `output` without re-encoding (concat demuxer, stream copy), muxing the
 * encoded audio once when given, and writes `output` atomically (a temporary name, renamed when
 * complete). The segments of a render, and the chunks of a segment (`faststart: false`: they are
 * joined again later). `format`: the chunks' (ffmpeg-args.ts chunkOutputArgs); a gif's final join
 * joins its lossless segments and makes the GIF from them with one palette (gifArgs).
 */
export async function joinSegments(
  ffmpeg: string,
  files: string[],
  audio: string | undefined,
  output: string,
  signal: AbortSignal | undefined,
  options: { faststart?: boolean; format: OutputFormatName },
): Promise<void> {
  const partial = `${output}.part`;
  const list = `${output}.list.txt`;
  const { format } = options;
  const gif = framesOf(format).paletted && options.faststart !== false;
  const joined = gif ? `${output}.joined.mkv` : partial;
  const palette = `${output}.palette.png`;
  writeFileSync(list, concatList(files));
  try {
    await runFfmpeg(
      ffmpeg,
      finalMuxArgs(list, gif ? undefined : audio, joined, { faststart: options.faststart, format }),
      signal,
    );
    if (gif) {
      const args = gifArgs(joined, palette, partial);
      await runFfmpeg(ffmpeg, args.palette, signal);
      await runFfmpeg(ffmpeg, args.gif, signal);
    }
    renameSync(partial, output);
  } finally {
    for (const f of [list, partial, joined, palette]) rmSync(f, { force: true });
  }
}
