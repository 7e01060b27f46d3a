/**
 * Frames of a video source for one layer, decoded by ffmpeg as a stream and scaled to the layer's
 * size before they reach the renderer: memory is a few frames whatever the clip's length.
 *
 * Frame-exact by construction: ffmpeg passes every decoded frame through with its own timestamp
 * (showinfo reports it, exactly, in the stream's time base), and `frameAt(s)` returns the frame a
 * player shows at source time `s`: the latest one whose timestamp is at or before `s`. No frame
 * rate conversion happens in ffmpeg, so nothing drifts over a long clip, at 24, 25, 29.97, 60 fps
 * or a variable rate, and a frame is shown twice only when the movie's rate is above the source's.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../lib/errors.ts';
import { startMediaTool } from '../../lib/process/ffmpeg-runner.ts';
import { clipFilter, SOURCE_TIME_SLACK, type VideoSourcePlan } from '../plan/video-source.ts';

export interface VideoFrame {
  /** yuv420p (Y, then U, then V; limited range), rows top to bottom. Valid until the reader moves on by two frames. */
  pixels: Uint8Array;
  /** The frame's timestamp in seconds from the source's start: equal for the same frame. */
  sec: number;
}

/** Frames handed out that may still be in use: the reader's current one and its look-ahead, and one spare. */
const HANDED_OUT = 3;
/** The longest wait for one decoded frame. */
const FRAME_TIMEOUT_MS = 60_000;
/** Complete frames waiting in the decoder before it stops reading ffmpeg's socket. */
const QUEUED = 2;

/** Builds ffmpeg's arguments for a decoder starting at or before `fromSec` (exported for tests). */
function decoderArgs(plan: VideoSourcePlan, fromSec: number, socket: string): string[] {
  // yuv420p in the source's matrix, limited range: 1.5 bytes a pixel through the pipe, no colour
  // conversion here; the renderer converts (or, for a full-frame BT.709 backdrop, copies the planes).
  return [
    '-hide_banner',
    '-nostats',
    '-nostdin',
    // Source timestamps untouched, and decoding from the keyframe before the seek point: the
    // frame showing at `fromSec` may be earlier than it, and frames are picked here, not by ffmpeg.
    '-copyts',
    '-noaccurate_seek',
    ...(fromSec > 0 ? ['-ss', fromSec.toFixed(6)] : []),
    '-i',
    plan.file,
    '-an',
    '-sn',
    '-dn',
    '-vf',
    `${clipFilter(plan)},setsar=1,showinfo=checksum=0`,
    '-fps_mode',
    'passthrough',
    '-f',
    'rawvideo',
    // Served on a Unix socket the reader connects to: its reads land in the frame buffers
    // themselves (no 64 KB chunk per read to allocate, copy and collect: 3 MB a 1080p frame).
    '-listen',
    '1',
    `unix:${socket}`,
  ];
}

let socketN = 0;

/** One decoder process from a seek point on: frames in order, each with its timestamp. */
class Decoder {
  readonly child: ChildProcess;
  readonly #frameBytes: number;
  readonly #socketPath: string;
  #socket: Socket | undefined;
  /** Buffers free to fill, and those handed out (recycled once HANDED_OUT newer ones were). */
  readonly #free: Uint8Array[] = [];
  readonly #out: Uint8Array[] = [];
  #fill: Uint8Array | undefined;
  #filled = 0;
  /** Complete frames not yet taken, and the timestamps showinfo reported (in order). */
  readonly #frames: Uint8Array[] = [];
  readonly #pts: number[] = [];
  #timeBase: number | undefined;
  #lineBuf = '';
  /** The process has exited (with `#error` when it failed) and the socket has ended. */
  #exited = false;
  #drained = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;

  constructor(ffmpeg: string, plan: VideoSourcePlan, fromSec: number, frameBytes: number) {
    this.#frameBytes = frameBytes;
    this.#socketPath = join(tmpdir(), `framewright-video-${process.pid}-${socketN++}.sock`);
    const decoder = startMediaTool(ffmpeg, decoderArgs(plan, fromSec, this.#socketPath), {
      stdout: 'ignore',
      onStderr: (chunk) => this.#onStderr(chunk.toString('latin1')),
      label: 'ffmpeg decoding',
    });
    this.child = decoder.child;
    const exited = () => {
      this.#exited = true;
      // A process that never got to listen leaves no socket to drain.
      if (!this.#socket) this.#drained = true;
      this.#wake?.();
    };
    decoder.done.then(exited, (err: Error) => {
      // Killed (by close(), when the layer ended or the time jumped): not a failure.
      if (this.child.signalCode !== 'SIGKILL') this.#fail(err);
      exited();
    });
    this.#connect(Date.now() + 10_000);
  }

  /** Connects once ffmpeg listens (it takes a few milliseconds to start). */
  #connect(deadline: number) {
    if (this.#exited) return;
    const socket = connect({
      path: this.#socketPath,
      onread: {
        // Each read lands in the rest of the frame being filled.
        buffer: () => {
          if (!this.#fill) {
            this.#fill = this.#free.pop() ?? new Uint8Array(this.#frameBytes);
            this.#filled = 0;
          }
          return this.#fill.subarray(this.#filled);
        },
        callback: (n: number) => this.#onRead(n),
      },
    });
    socket.once('connect', () => {
      this.#socket = socket;
      rmSync(this.#socketPath, { force: true });
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!this.#socket && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') && Date.now() < deadline) {
        setTimeout(() => this.#connect(deadline), 5);
        return;
      }
      this.#fail(err);
    });
    socket.once('end', () => {
      this.#drained = true;
      this.#wake?.();
    });
  }

  #fail(err: Error) {
    this.#error ??= err;
    this.#wake?.();
  }

  /** Bytes arrived in the frame being filled; false pauses the socket (back-pressure). */
  #onRead(n: number): boolean {
    this.#filled += n;
    if (this.#filled === this.#frameBytes) {
      this.#frames.push(this.#fill!);
      this.#fill = undefined;
    }
    this.#wake?.();
    // ffmpeg waits on the socket while frames are ready, so memory stays a few frames.
    return this.#frames.length < QUEUED;
  }

  #onStderr(text: string) {
    const lines = (this.#lineBuf + text).split('\n');
    this.#lineBuf = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('Parsed_showinfo')) continue;
      const tb = /config in time_base: (\d+)\/(\d+)/.exec(line);
      if (tb) this.#timeBase = Number(tb[1]) / Number(tb[2]);
      const f = /\bn:\s*\d+\s+pts:\s*(-?\d+|NOPTS)/.exec(line);
      if (f) this.#pts.push(f[1] === 'NOPTS' ? Number.NaN : Number(f[1]));
    }
    this.#wake?.();
  }

  /** The next frame and its timestamp in seconds (raw, container time), or undefined at the end. */
  async next(): Promise<{ pixels: Uint8Array; sec: number } | undefined> {
    for (;;) {
      // A frame's showinfo line is written before its bytes, but the two pipes are read apart.
      if (this.#frames.length > 0 && this.#pts.length > 0 && this.#timeBase !== undefined) {
        const pixels = this.#frames.shift()!;
        const pts = this.#pts.shift()!;
        this.#out.push(pixels);
        if (this.#out.length > HANDED_OUT) this.#free.push(this.#out.shift()!);
        if (this.#frames.length < QUEUED) this.#socket?.resume();
        return { pixels, sec: pts * this.#timeBase };
      }
      if (this.#error) throw this.#error;
      if (this.#exited && this.#drained) return undefined;
      // A file that stalls the decoder (hostile or broken) fails the render instead of holding it.
      let timer: NodeJS.Timeout | undefined;
      const stalled = await new Promise<boolean>((resolve) => {
        this.#wake = () => resolve(false);
        timer = setTimeout(() => resolve(true), FRAME_TIMEOUT_MS);
      });
      clearTimeout(timer);
      this.#wake = undefined;
      if (stalled) throw new Error(`no frame came from ffmpeg in ${FRAME_TIMEOUT_MS / 1000} s`);
    }
  }

  close() {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
    this.#socket?.destroy();
    rmSync(this.#socketPath, { force: true });
  }
}

/**
 * Frames of one source for one layer. Times asked for go forward within a pass of the clip; a
 * time before the current frame (a loop starting again) or far ahead starts a new decoder there.
 */
export class VideoReader {
  readonly #ffmpeg: string;
  readonly #plan: VideoSourcePlan;
  readonly #path: string;
  #decoder: Decoder | undefined;
  #current: VideoFrame | undefined;
  #ahead: VideoFrame | undefined;
  #exhausted = false;
  /** Where the current decoder was asked to start. */
  #seekedTo = 0;

  constructor(ffmpeg: string, plan: VideoSourcePlan, path: string) {
    this.#ffmpeg = ffmpeg;
    this.#plan = plan;
    this.#path = path;
  }

  #restart(sec: number) {
    this.#seekedTo = Math.max(0, sec);
    this.#decoder?.close();
    this.#decoder = new Decoder(
      this.#ffmpeg,
      this.#plan,
      this.#seekedTo,
      (this.#plan.width * this.#plan.height * 3) / 2,
    );
    this.#current = undefined;
    this.#ahead = undefined;
    this.#exhausted = false;
  }

  async #read(): Promise<VideoFrame | undefined> {
    if (this.#exhausted) return undefined;
    let f: { pixels: Uint8Array; sec: number } | undefined;
    try {
      f = await this.#decoder!.next();
    } catch (err) {
      throw new AppError('ASSET_INVALID', `The video could not be decoded: ${(err as Error).message}`, {
        path: this.#path,
        cause: err,
      });
    }
    if (!f) {
      this.#exhausted = true;
      return undefined;
    }
    return { pixels: f.pixels, sec: f.sec - this.#plan.startSec };
  }

  /** The frame a player shows at source time `sec` (seconds from the source's start). */
  async frameAt(sec: number): Promise<VideoFrame> {
    const target = sec + SOURCE_TIME_SLACK;
    // Backwards (a loop), or more than a few seconds ahead (cheaper to seek than to decode through).
    if (
      !this.#decoder ||
      (this.#current && target < this.#current.sec) ||
      (this.#current && sec - this.#current.sec > 5)
    )
      this.#restart(sec);
    for (;;) {
      if (!this.#ahead) this.#ahead = await this.#read();
      const next = this.#ahead;
      if (!next) break;
      if (next.sec > target && this.#current) break;
      if (next.sec > target && this.#seekedTo > 0) {
        // The container's index put the seek after `sec` (rare): decode from further back.
        this.#restart(this.#seekedTo - 10);
        continue;
      }
      this.#current = next;
      this.#ahead = undefined;
      if (next.sec > target) break; // the source starts after `sec`: its first frame stands in
    }
    if (!this.#current) throw new AppError('ASSET_INVALID', 'The video has no frames', { path: this.#path });
    return this.#current;
  }

  close() {
    this.#decoder?.close();
    this.#decoder = undefined;
  }
}
