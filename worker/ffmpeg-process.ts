import type { ChildProcess } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { AppError } from '../lib/errors.ts';
import { runMediaTool, startMediaTool } from '../lib/process/ffmpeg-runner.ts';
import { concatList, finalMuxArgs } from './ffmpeg-args.ts';

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
 * joined again later).
 */
export async function joinSegments(
  ffmpeg: string,
  files: string[],
  audio: string | undefined,
  output: string,
  signal?: AbortSignal,
  options: { faststart?: boolean } = {},
): Promise<void> {
  const partial = `${output}.part`;
  const list = `${output}.list.txt`;
  writeFileSync(list, concatList(files));
  try {
    await runFfmpeg(ffmpeg, finalMuxArgs(list, audio, partial, options), signal);
    renameSync(partial, output);
  } finally {
    rmSync(list, { force: true });
    rmSync(partial, { force: true });
  }
}
