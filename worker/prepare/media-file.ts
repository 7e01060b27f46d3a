/**
 * Video and audio sources of a document: fetched through the SSRF-guarded fetch into the render's
 * scratch directory, probed with ffprobe, and decoded by ffmpeg. A missing file is
 * ASSET_UNREACHABLE, one ffmpeg cannot read (or without the stream the element needs) is
 * ASSET_INVALID, both at the element's path and before a frame is drawn.
 */
import { join } from 'node:path';
import { AppError } from '../../lib/errors.ts';
import { runFfmpeg } from '../encode/ffmpeg-process.ts';
import { type FetchPolicy, fetchAsset } from './assets/fetch-asset.ts';

/** Media types a video element accepts (the formats POST /v1/assets stores as video). */
const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'];
/** Media types an audio source accepts; a video file's sound is fine too. */
const AUDIO_TYPES = [
  'audio/mpeg',
  'audio/mp3',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/vnd.wave',
  'audio/ogg',
  'application/ogg',
  'audio/flac',
  'audio/x-flac',
  'audio/mp4',
  'audio/x-m4a',
  'audio/aac',
  'audio/webm',
  ...VIDEO_TYPES,
];

/** Media fetches may take longer than an image's: a minute, and up to what an upload may be (ASSET_MAX_BYTES). */
const MEDIA_TIMEOUT_MS = 60_000;
const MEDIA_MAX_BYTES = 100 * 1024 * 1024;
/** A file that keeps ffprobe or the sound's decoding busy longer than this is refused (ASSET_INVALID). */
const PROBE_TIMEOUT_MS = 30_000;
const DECODE_TIMEOUT_MS = 120_000;

/** The render's signal, or a time limit of its own: a hostile file cannot hold a render forever. */
const bounded = (signal: AbortSignal | undefined, ms: number) =>
  signal ? AbortSignal.any([signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms);

export interface MediaInfo {
  /** Seconds of the file (the container's duration). */
  durationSec: number;
  /** The container's first timestamp: source times in documents count from it. */
  startSec: number;
  /**
   * Display size (rotation and pixel aspect applied) of the first video stream, and its YCbCr
   * matrix: BT.709 when tagged so, BT.601 otherwise (tagged 601, or untagged: ffmpeg's default).
   */
  video?: { width: number; height: number; frameRate: number; matrix: 'bt709' | 'bt601' } | undefined;
  audio?: { sampleRate: number; channels: number } | undefined;
}

let fileN = 0;

/** Fetches a video or audio source into `tmpDir`; returns the file's path. */
export async function fetchMedia(
  url: string,
  path: string,
  kind: 'video' | 'audio',
  policy: FetchPolicy,
  tmpDir: string,
  signal?: AbortSignal,
): Promise<string> {
  const types = kind === 'video' ? VIDEO_TYPES : AUDIO_TYPES;
  const file = join(tmpDir, `media-${fileN++}`);
  // Streamed to the scratch directory: a 100 MB clip never sits in memory.
  await fetchAsset(
    url,
    path,
    (t) => types.includes(t),
    { ...policy, timeoutMs: policy.timeoutMs ?? MEDIA_TIMEOUT_MS, maxBytes: policy.mediaMaxBytes ?? MEDIA_MAX_BYTES },
    signal,
    file,
  );
  return file;
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  color_space?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

const ratio = (s: string | undefined): number => {
  const m = /^(\d+)[:/](\d+)$/.exec(s ?? '');
  if (!m || Number(m[2]) === 0) return 0;
  return Number(m[1]) / Number(m[2]);
};

/** Reads what rendering needs from ffprobe's JSON; ASSET_INVALID at `path` when it cannot. */
export async function probeMedia(
  ffprobe: string,
  file: string,
  path: string,
  signal?: AbortSignal,
): Promise<MediaInfo> {
  let out: Buffer;
  try {
    out = await runFfmpeg(
      ffprobe,
      [
        '-v',
        'error',
        '-show_entries',
        'format=duration,start_time:stream=codec_type,width,height,sample_aspect_ratio,avg_frame_rate,r_frame_rate,sample_rate,channels,color_space:stream_tags=rotate:stream_side_data=rotation',
        '-of',
        'json',
        file,
      ],
      bounded(signal, PROBE_TIMEOUT_MS),
    );
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw new AppError('ASSET_INVALID', 'The file is not a video or audio file ffmpeg can read', { path, cause: err });
  }
  const json = JSON.parse(out.toString('utf8')) as {
    format?: { duration?: string; start_time?: string };
    streams?: ProbeStream[];
  };
  const streams = json.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && (s.width ?? 0) > 0);
  const a = streams.find((s) => s.codec_type === 'audio');
  const durationSec = Number(json.format?.duration);
  let video: MediaInfo['video'];
  if (v) {
    const sar = ratio(v.sample_aspect_ratio) || 1;
    let width = Math.round(v.width! * sar);
    let height = v.height ?? 0;
    const rotation = Math.abs(
      Number(v.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? v.tags?.rotate ?? 0),
    );
    if (rotation % 180 === 90) [width, height] = [height, width];
    video = {
      width,
      height,
      frameRate: ratio(v.avg_frame_rate) || ratio(v.r_frame_rate),
      matrix: v.color_space === 'bt709' ? 'bt709' : 'bt601',
    };
  }
  return {
    durationSec: Number.isFinite(durationSec) ? durationSec : 0,
    startSec: Number(json.format?.start_time) || 0,
    video,
    audio: a ? { sampleRate: Number(a.sample_rate) || 0, channels: a.channels ?? 0 } : undefined,
  };
}

/**
 * Seconds of the source that play: from trimStart for trimDuration, or to the end of the file.
 * ASSET_INVALID at `${path}.trimStart` when trimStart is past the end.
 */
export function playedSec(info: MediaInfo, trimStart: number, trimDuration: number | undefined, path: string): number {
  const left = info.durationSec - trimStart;
  if (!(left > 0)) {
    throw new AppError(
      'ASSET_INVALID',
      `trimStart ${trimStart} s is at or past the end of the source, which lasts ${info.durationSec.toFixed(3)} s`,
      { path: `${path}.trimStart` },
    );
  }
  return trimDuration === undefined ? left : Math.min(trimDuration, left);
}

/**
 * Decodes `lengthSec` of a source's sound from `fromSec` to s16 at `rate`: mono as mono (the mix
 * puts it in both channels at full level; ffmpeg's upmix would lower it 3 dB), anything else as
 * stereo, interleaved (ffmpeg downmixes surround). ASSET_INVALID at `path` when it cannot be decoded.
 */
export async function decodeAudio(
  ffmpeg: string,
  file: string,
  fromSec: number,
  lengthSec: number,
  rate: number,
  channels: 1 | 2,
  path: string,
  signal?: AbortSignal,
): Promise<Int16Array> {
  try {
    const out = await runFfmpeg(
      ffmpeg,
      [
        '-v',
        'error',
        '-nostdin',
        '-ss',
        fromSec.toFixed(6),
        '-t',
        lengthSec.toFixed(6),
        '-i',
        file,
        '-vn',
        '-sn',
        '-ac',
        String(channels),
        '-ar',
        String(rate),
        '-f',
        's16le',
        'pipe:1',
      ],
      bounded(signal, DECODE_TIMEOUT_MS),
    );
    // A fresh, aligned copy: Buffer slices may start at an odd offset of a shared pool.
    const pcm = new Int16Array(out.length >> 1);
    Buffer.from(pcm.buffer).set(out.subarray(0, pcm.length * 2));
    return pcm;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw new AppError('ASSET_INVALID', "The source's sound could not be decoded", { path, cause: err });
  }
}
