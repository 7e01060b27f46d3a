import { renameSync, rmSync } from 'node:fs';
import { chunksOf, type FrameRange } from '../plan/segments.ts';
import { segmentEncodeArgs, type VideoSettings } from './ffmpeg-args.ts';
import { type FrameSink, joinSegments, startEncoder } from './ffmpeg-process.ts';

/**
 * Encodes a segment's frames as chunks, one encoder process per chunk (segments.ts CHUNK_SEC), and
 * joins the chunks into the segment's MP4 without re-encoding. A chunk's bytes depend on its own
 * frames and the settings alone, which is what makes a movie cut into any number of segments
 * decode to the same frames. The next chunk's encoder starts while the previous one flushes its
 * last frames; at most two run at once.
 */
export class ChunkedEncoder {
  private readonly chunks: FrameRange[];
  private readonly files: string[];
  private index = -1;
  private sink: FrameSink | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** The chunk before the current one while it finishes (a composited chunk runs for seconds). */
  private ending: FrameSink | undefined;
  private frame: number;
  /** Runs when the current chunk's process has finished (a composited chunk's overlay images). */
  private cleanup: (() => void) | undefined;

  constructor(
    private readonly ffmpeg: string,
    private readonly settings: VideoSettings,
    range: FrameRange,
    chunkFrames: number,
    private readonly output: string,
    private readonly signal?: AbortSignal,
  ) {
    this.chunks = chunksOf(range, chunkFrames);
    // The name's extension is a name only: the muxer is the format's (chunkOutputArgs).
    this.files = this.chunks.map((_, i) => `${output}.chunk-${i}.mp4`);
    this.frame = range.from;
  }

  /** Writes the next frame of the range (back-pressure as FrameSink.write). */
  async write(bytes: Uint8Array): Promise<void> {
    const next = this.chunks[this.index + 1];
    if (!this.sink || (next && this.frame >= next.from)) await this.nextChunk();
    this.frame++;
    await this.sink!.write(bytes);
  }

  /**
   * Makes the next chunk with a command of its own that reads no frames (a chunk composited by
   * ffmpeg: composite.ts), given the chunk's output file and the render's settings. It runs
   * while the caller goes on; `done` runs when it has finished, whether it succeeded or not.
   */
  async command(args: (output: string, settings: VideoSettings) => string[], done: () => void): Promise<void> {
    const chunk = this.chunks[this.index + 1];
    if (!chunk || this.frame !== chunk.from) throw new Error(`no chunk starts at frame ${this.frame}`);
    await this.nextChunk(args, done);
    this.frame = chunk.to;
  }

  private async nextChunk(
    args = (output: string, settings: VideoSettings) => segmentEncodeArgs(settings, output),
    done?: () => void,
  ): Promise<void> {
    // The encoder before the last is done before a third starts.
    await this.flushing;
    if (this.sink) {
      const ending = this.sink;
      const cleanup = this.cleanup;
      this.ending = ending;
      this.flushing = ending.end().finally(() => cleanup?.());
      this.flushing.catch(() => {});
    }
    this.index++;
    this.cleanup = done;
    this.sink = startEncoder(this.ffmpeg, args(this.files[this.index]!, this.settings), this.signal);
  }

  /** Finishes the last chunk and joins the chunks into the output. */
  async end(): Promise<void> {
    if (this.index !== this.chunks.length - 1 || !this.sink) {
      throw new Error(`the encoder got frames up to ${this.frame}, short of its range`);
    }
    await this.flushing;
    try {
      await this.sink.end();
    } finally {
      this.cleanup?.();
      this.cleanup = undefined;
    }
    this.sink = undefined;
    if (this.files.length === 1) {
      renameSync(this.files[0]!, this.output);
      return;
    }
    try {
      await joinSegments(this.ffmpeg, this.files, undefined, this.output, this.signal, {
        faststart: false,
        format: this.settings.format,
      });
    } finally {
      this.removeChunks();
    }
  }

  /** Stops whatever runs (a failed render) and removes the chunk files. */
  kill(): void {
    this.ending?.child.kill('SIGKILL');
    this.sink?.child.kill('SIGKILL');
    this.cleanup?.();
    this.removeChunks();
  }

  private removeChunks(): void {
    for (const f of this.files) rmSync(f, { force: true });
  }
}
