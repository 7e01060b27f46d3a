import type { OutputFormatName } from '../../lib/output-formats.ts';
import type { EncodeQuality, VideoCodec } from '../plan/plan.ts';

/**
 * ffmpeg argument builders: pure, so the exact command lines are tested without running them.
 * Every segment of a render is encoded with the same settings, which is what lets the concat
 * demuxer join them without re-encoding.
 */
export interface VideoSettings {
  width: number;
  height: number;
  fps: number;
  codec: VideoCodec;
  quality: EncodeQuality;
  /** x264 threads: part of the plan, since the bytes x264 writes depend on its thread count. */
  threads: number;
  /** The render's output format (a video one): how each chunk is encoded (chunkOutputArgs). */
  format: OutputFormatName;
  /** Frames carry an alpha plane (yuva420p in, alpha kept by mov and webm; plan.ts `alpha`). */
  alpha?: boolean | undefined;
}

/**
 * Encoder settings per quality (the movie's `quality`, `balanced` by default). Measured on
 * examples/bench-60s.json (1080p30, 60 s of text, images and animation) on 2 cores, against the
 * same frames encoded losslessly; `make bench-render` prints these figures again:
 * - fast: x264 ultrafast, CRF 20, a keyframe every 2 s. 5.9 MB of video at SSIM 0.99992. x264
 *   still analyses every frame, repeated or not; at 1080p ultrafast costs ~7 ms a frame against
 *   ~19 ms for veryfast, the difference between 4x realtime and 1x.
 * - balanced: ultrafast plus the three tools that pay for themselves on rendered graphics: CABAC,
 *   the deblocking filter and one B-frame (not adaptive), at CRF 32 with a keyframe every 10 s.
 *   1.48 MB at SSIM 0.99892, where x264 veryfast at CRF 20 gives 1.25 MB at 0.99881 (1.18x its
 *   bytes, better SSIM) for 0.94x the speed of fast. ultrafast without psychovisual tuning keeps
 *   SSIM high at a higher CRF; most of the bytes went to keyframes and CAVLC. Tried and left out
 *   (more CPU than their bytes are worth here): mbtree (rc-lookahead), more B-frames, subme.
 * - small: x264 veryfast, CRF 23, a keyframe every 10 s. 0.92 MB at SSIM 0.99817, about twice the
 *   encoding CPU of balanced.
 * One x264 thread per core rather than its default of 1.5 per core: as fast here (the frames are
 * drawn on the same cores) and 13 MB less memory at 1080p (prepare sets `threads` once per render,
 * from the preparing machine's cores: x264's output depends on its thread count, so every pod
 * of a render must use the same; half as many when most chunks are composited by ffmpeg, two
 * chunk processes at once: prepare.ts encoderThreadsFor). Every chunk of a render gets the same settings, so the concat
 * demuxer joins them without re-encoding.
 */
export function codecArgs(codec: VideoCodec, fps: number, quality: EncodeQuality, threadCount: number): string[] {
  const gop = (sec: number) => ['-g', String(Math.max(1, Math.round(fps * sec)))];
  if (codec === 'h264_nvenc') return nvencArgs(quality, gop);
  const threads = ['-threads', String(Math.max(1, Math.floor(threadCount)))];
  switch (quality) {
    case 'fast':
      return ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', ...threads, ...gop(2)];
    case 'balanced':
      return [
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-crf',
        '32',
        '-x264-params',
        'cabac=1:deblock=1:bframes=1:b-adapt=0',
        ...threads,
        ...gop(10),
      ];
    case 'small':
      return ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', ...threads, ...gop(10)];
    case 'lossless':
      return ['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', ...threads, ...gop(10)];
  }
}

/**
 * NVENC per quality, chosen by the same reasoning but not measured (no NVIDIA encoder on these
 * machines: its test skips): fast is the quickest preset with a 2 s GOP; balanced adds two
 * B-frames and spatial AQ with a 10 s GOP and a higher CQ; small a slower preset tuned for
 * quality with three B-frames and a lookahead. Constant-quality VBR (`-b:v 0`) throughout, so
 * repeated frames cost next to nothing. Only options every NVENC generation since Maxwell takes
 * (no B-frames as references, no temporal AQ), since the probe tests a plain encode.
 */
function nvencArgs(quality: EncodeQuality, gop: (sec: number) => string[]): string[] {
  const base = ['-c:v', 'h264_nvenc', '-rc', 'vbr', '-b:v', '0'];
  switch (quality) {
    case 'fast':
      return [...base, '-preset', 'p1', '-cq', '23', ...gop(2)];
    case 'balanced':
      return [...base, '-preset', 'p4', '-cq', '28', '-bf', '2', '-spatial-aq', '1', ...gop(10)];
    case 'small':
      return [
        ...base,
        '-preset',
        'p6',
        '-tune',
        'hq',
        '-cq',
        '30',
        '-bf',
        '3',
        '-spatial-aq',
        '1',
        '-rc-lookahead',
        '20',
        ...gop(10),
      ];
    case 'lossless':
      return ['-c:v', 'h264_nvenc', '-preset', 'p1', '-tune', 'lossless', ...gop(10)];
  }
}

/** Every command: no banner, no stdin, errors only (they end up in RENDER_FAILED messages). */
export const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error'];

/** Tags the stream as BT.709 limited range: the matrix the GPU pass converts with. */
const COLOR_TAGS = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'];

/** Raw yuv420p frames on stdin -> one H.264 MP4 chunk without audio. */
export function segmentEncodeArgs(v: VideoSettings, output: string): string[] {
  return [
    ...QUIET,
    '-y',
    '-f',
    'rawvideo',
    '-pix_fmt',
    v.alpha ? 'yuva420p' : 'yuv420p',
    '-s',
    `${v.width}x${v.height}`,
    '-framerate',
    String(v.fps),
    '-i',
    'pipe:0',
    ...chunkOutputArgs(v, output),
  ];
}

/**
 * How every chunk of a render is encoded, from raw frames or composited by ffmpeg (composite.ts):
 * the same settings, so the same frames give the same bytes and the chunks join without
 * re-encoding. Per format (`v.format`, the movie's `output.format`):
 * - mp4: H.264 (codecArgs), yuv420p.
 * - webm: VP9 (vp9Args), yuv420p, or yuva420p with alpha (libvpx writes the alpha plane as the
 *   WebM block additions players read; the concat demuxer copies them).
 * - mov: ProRes 4444 (prores_ks profile 4), yuv444p10le, or yuva444p10le with alpha. Intra-only,
 *   so any cut joins.
 * - gif: a lossless intermediate (FFV1 in Matroska, intra-only): the palette is made for the whole
 *   movie at the join (gifArgs), so a GIF spread over pods has one palette as on one pod.
 */
export function chunkOutputArgs(v: VideoSettings, output: string): string[] {
  const frames = framesOf(v.format);
  const threads = String(Math.max(1, Math.floor(v.threads)));
  return [...frames.args(v, threads), ...COLOR_TAGS, '-an', '-f', frames.muxer, output];
}

/** How a format's frames are encoded in chunks and joined; absent: the format has no frames to encode. */
interface FrameEncoding {
  /** The encoder and pixel format of every chunk. */
  args: (v: VideoSettings, threads: string) => string[];
  /** The muxer of its chunks, segments and joined file (gif: its intermediate's). */
  muxer: string;
  /** The joined file's index moved to the front (MP4 and QuickTime). */
  faststart: boolean;
  /** The joined intermediate becomes the output with one palette for the whole movie (gifArgs). */
  paletted: boolean;
}

/**
 * How each output format is encoded by ffmpeg: its frames (chunks, their muxer, the join) and its
 * sound's codec. One entry per format, none by default, so a format added to OUTPUT_FORMATS
 * (lib/output-formats.ts) does not compile until it has its own here. Stills are encoded by sharp
 * (still-image.ts, its own table over the same formats).
 */
const ENCODING: Record<OutputFormatName, { frames?: FrameEncoding; audio?: AudioCodec }> = {
  mp4: {
    frames: {
      args: (v) => [...codecArgs(v.codec, v.fps, v.quality, v.threads), '-pix_fmt', 'yuv420p'],
      muxer: 'mp4',
      faststart: true,
      paletted: false,
    },
    audio: 'aac',
  },
  webm: {
    frames: {
      args: (v, threads) => [...vp9Args(v.fps, v.quality, threads), '-pix_fmt', v.alpha ? 'yuva420p' : 'yuv420p'],
      muxer: 'webm',
      faststart: false,
      paletted: false,
    },
    audio: 'opus',
  },
  mov: {
    frames: {
      args: (v, threads) => [
        ...['-c:v', 'prores_ks', '-profile:v', '4', '-vendor', 'apl0', '-threads', threads],
        ...['-pix_fmt', v.alpha ? 'yuva444p10le' : 'yuv444p10le'],
      ],
      muxer: 'mov',
      faststart: true,
      paletted: false,
    },
    audio: 'aac',
  },
  gif: {
    frames: {
      args: (_v, threads) => ['-c:v', 'ffv1', '-threads', threads, '-pix_fmt', 'yuv420p'],
      muxer: 'matroska',
      faststart: false,
      paletted: true,
    },
  },
  mp3: { audio: 'mp3' },
  wav: { audio: 'wav' },
  png: {},
  jpeg: {},
  webp: {},
};

/** The frame encoding of a format that has frames; a sound or still format here is a bug upstream. */
export function framesOf(format: OutputFormatName): FrameEncoding {
  const frames = ENCODING[format].frames;
  if (!frames) throw new Error(`output format ${format} has no frames to encode`);
  return frames;
}

/**
 * VP9 per quality (libvpx-vp9): the realtime deadline throughout (the "good" deadline costs
 * several times the CPU of x264 on these machines), constant quality (`-b:v 0`), row
 * multithreading, a keyframe every 2 s (fast) or 10 s as for H.264. Not measured against SSIM as
 * the H.264 settings are: fast spends the least CPU, small the fewest bytes.
 */
function vp9Args(fps: number, quality: EncodeQuality, threads: string): string[] {
  const gop = (sec: number) => ['-g', String(Math.max(1, Math.round(fps * sec)))];
  const base = ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-row-mt', '1', '-threads', threads];
  switch (quality) {
    case 'fast':
      return [...base, '-cpu-used', '8', '-crf', '30', '-b:v', '0', ...gop(2)];
    case 'balanced':
      return [...base, '-cpu-used', '7', '-crf', '34', '-b:v', '0', ...gop(10)];
    case 'small':
      return [...base, '-cpu-used', '6', '-crf', '38', '-b:v', '0', ...gop(10)];
    case 'lossless':
      return [...base, '-cpu-used', '8', '-lossless', '1', ...gop(10)];
  }
}

export interface AudioInput {
  /** Raw PCM, s16le, interleaved when stereo. */
  file: string;
  sampleRate: number;
  channels?: 1 | 2;
}

/** The mixed PCM as an ffmpeg input. */
export function pcmInputArgs(audio: AudioInput): string[] {
  return ['-f', 's16le', '-ar', String(audio.sampleRate), '-ac', String(audio.channels ?? 1), '-i', audio.file];
}

/** How the mix is encoded: AAC (in MP4; mp4 and mov), Opus (in WebM; webm), MP3, WAV. */
export type AudioCodec = 'aac' | 'opus' | 'mp3' | 'wav';

/** The mix's codec of an output format; undefined: the format has no sound (gif, stills). */
export function audioCodecFor(format: OutputFormatName): AudioCodec | undefined {
  return ENCODING[format].audio;
}

/**
 * The mixed PCM -> AAC in an MP4 (audio only). Run while the frames render, so the final mux only
 * copies streams. The fast coder: ~3x quicker than the default two-loop search (0.4 s against
 * 1.2 s for a minute of speech here), and speech at 128 kb/s does not need the search. A stereo
 * mix (music, recorded sound) gets 192 kb/s. `filters`: the loudness normalisation's
 * (worker/encode/audio/loudness.ts), applied on the way in. Other codecs (`codec`, audioCodecFor): Opus
 * in WebM (96 kb/s, 160 kb/s stereo, at 48 kHz, Opus's rate) for a webm's join to copy; an audio
 * format's own file, MP3 (LAME, 192 kb/s CBR) or WAV (16-bit PCM at 48 kHz).
 */
export function audioEncodeArgs(
  audio: AudioInput,
  output: string,
  filters: readonly string[] = [],
  codec: AudioCodec = 'aac',
): string[] {
  const stereo = audio.channels === 2;
  const encode: Record<AudioCodec, string[]> = {
    aac: ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', stereo ? '192k' : '128k', '-f', 'mp4'],
    opus: ['-c:a', 'libopus', '-b:a', stereo ? '160k' : '96k', '-ar', '48000', '-f', 'webm'],
    mp3: ['-c:a', 'libmp3lame', '-b:a', '192k', '-f', 'mp3'],
    wav: ['-c:a', 'pcm_s16le', '-ar', '48000', '-f', 'wav'],
  };
  return [
    ...QUIET,
    '-y',
    ...pcmInputArgs(audio),
    ...(filters.length > 0 ? ['-af', filters.join(',')] : []),
    ...encode[codec],
    output,
  ];
}

/**
 * Joins segments (concat demuxer, stream copy), adds the encoded audio (audioEncodeArgs' output,
 * also copied), and moves the index to the front (not for a segment's own chunks, joined again
 * later). No encoding happens here. `format`: the container (the chunks' own, chunkOutputArgs);
 * a gif's segments join into its intermediate (Matroska), which gifArgs turns into the GIF.
 */
export function finalMuxArgs(
  concatList: string,
  encodedAudio: string | undefined,
  output: string,
  { faststart = true, format }: { faststart?: boolean; format: OutputFormatName },
): string[] {
  const args = [...QUIET, '-y', '-f', 'concat', '-safe', '0', '-i', concatList];
  if (encodedAudio) {
    args.push('-i', encodedAudio, '-map', '0:v:0', '-map', '1:a:0', '-c', 'copy');
  } else {
    args.push('-map', '0:v:0', '-c:v', 'copy');
  }
  const frames = framesOf(format);
  if (faststart && frames.faststart) args.push('-movflags', '+faststart');
  args.push('-f', frames.muxer, output);
  return args;
}

/**
 * A gif's lossless intermediate -> the GIF, in two passes over it: palettegen (one palette of 256
 * colours for the whole movie, from every frame's pixels) to `palette`, then paletteuse (Sierra
 * dithering; only the rectangle that changed is written again, so still frames cost next to
 * nothing). The YUV -> RGB conversion is told the BT.709 limited-range matrix the frames were made
 * with. The GIF loops forever; it has no sound.
 */
export function gifArgs(intermediate: string, palette: string, output: string): { palette: string[]; gif: string[] } {
  const rgb = 'scale=in_color_matrix=bt709:in_range=tv,format=rgb24';
  return {
    palette: [...QUIET, '-y', '-i', intermediate, '-vf', `${rgb},palettegen=stats_mode=full`, '-f', 'image2', palette],
    gif: [
      ...QUIET,
      '-y',
      '-i',
      intermediate,
      '-i',
      palette,
      '-lavfi',
      `[0:v]${rgb}[v];[v][1:v]paletteuse=dither=sierra2_4a:diff_mode=rectangle`,
      '-loop',
      '0',
      '-f',
      'gif',
      output,
    ],
  };
}

/** The concat demuxer's list file; paths quoted as its syntax requires. */
export function concatList(files: string[]): string {
  return files.map((f) => `file '${f.replaceAll("'", "'\\''")}'\n`).join('');
}

/** A tiny encode that succeeds only where the NVENC encoder really works (driver, device, session). */
export function nvencProbeArgs(): string[] {
  return [...QUIET, '-f', 'lavfi', '-i', 'color=c=black:s=256x144:r=30:d=0.2', '-c:v', 'h264_nvenc', '-f', 'null', '-'];
}
