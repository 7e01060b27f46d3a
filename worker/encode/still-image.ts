import sharp, { type Sharp } from 'sharp';
import type { OutputFormatName } from '../../lib/output-formats.ts';
import { runFfmpeg } from './ffmpeg-process.ts';

/**
 * Images of one frame: a still render's output, a video render's poster and thumbnail. The
 * frame's RGB comes from ffmpeg (the renderer's yuv420p read-back, or a frame decoded from the
 * finished video), converted with the BT.709 limited-range matrix the video is encoded and tagged
 * with, so an image shows the pixels a player shows for that frame; sharp (libvips) encodes it.
 */

/** A frame as packed 8-bit RGB, or straight-alpha RGBA (a still that keeps alpha), rows top-down. */
export interface RgbFrame {
  data: Buffer;
  width: number;
  height: number;
  channels?: 3 | 4;
}

/** JPEG and WebP quality of stills and posters: artefacts invisible at normal viewing. */
const IMAGE_QUALITY = 90;

/** Longest side of a thumbnail, in pixels (the dashboard's list shows them at 160 px, 2x). */
const THUMBNAIL_SIZE = 320;

const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error'];

/**
 * yuv420p BT.709 limited range -> full-range RGB, chroma upsampled by swscale (what ffmpeg-based
 * players and the tests' own decode do). Explicit, not read from tags: raw input has none, and
 * swscale's default matrix for untagged input is BT.601.
 */
const TO_RGB = 'scale=in_color_matrix=bt709:in_range=tv:out_range=pc:flags=bicubic+accurate_rnd+full_chroma_int';

/**
 * The renderer's bytes of one frame (a file) as RGB: yuv420p, or with `alpha` the straight-alpha
 * yuva420p of a movie that keeps alpha (frame-renderer.ts renderAlpha), as RGBA.
 */
export async function rgbFromYuvFile(
  ffmpeg: string,
  file: string,
  width: number,
  height: number,
  signal?: AbortSignal,
  alpha = false,
): Promise<RgbFrame> {
  const data = await runFfmpeg(
    ffmpeg,
    [
      ...QUIET,
      '-f',
      'rawvideo',
      '-pix_fmt',
      alpha ? 'yuva420p' : 'yuv420p',
      '-s',
      `${width}x${height}`,
      '-i',
      file,
      '-vf',
      TO_RGB,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      alpha ? 'rgba' : 'rgb24',
      'pipe:1',
    ],
    signal,
  );
  return checked({ data, width, height, channels: alpha ? 4 : 3 });
}

/**
 * The frame of a video file shown at `timeSec`: frame floor(timeSec x fps), the one a still render
 * of that time draws. Seeks to half a frame before it (ffmpeg's accurate seek drops the frames
 * before that point, so rounding never picks the neighbour), then decodes that one frame.
 */
export async function rgbFrameOfVideo(
  ffmpeg: string,
  video: string,
  timeSec: number,
  frame: { width: number; height: number; fps: number; totalFrames: number },
  signal?: AbortSignal,
): Promise<RgbFrame> {
  const index = frameIndexAt(timeSec, frame.fps, frame.totalFrames);
  const seek = Math.max(0, (index - 0.5) / frame.fps);
  const data = await runFfmpeg(
    ffmpeg,
    [
      ...QUIET,
      '-ss',
      seek.toFixed(6),
      '-i',
      video,
      '-map',
      '0:v:0',
      '-vf',
      TO_RGB,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    signal,
  );
  return checked({ data, width: frame.width, height: frame.height });
}

/** The frame shown at `timeSec`: the one whose interval [f / fps, (f + 1) / fps) holds it, at most the last. */
export function frameIndexAt(timeSec: number, fps: number, totalFrames: number): number {
  // The epsilon keeps 0.1 s at 30 fps (2.9999999999999996) on frame 3, where a reader expects it.
  const f = Math.floor(timeSec * fps + 1e-6);
  return Math.max(0, Math.min(totalFrames - 1, f));
}

function checked(f: RgbFrame): RgbFrame {
  const want = f.width * f.height * (f.channels ?? 3);
  if (f.data.length !== want) {
    throw new Error(`ffmpeg gave ${f.data.length} bytes of RGB for a ${f.width}x${f.height} frame (${want} expected)`);
  }
  return f;
}

/**
 * How each output format's one frame is encoded by sharp: the still formats (PNG lossless, JPEG and
 * WebP at IMAGE_QUALITY, alpha where the frame has it); the others have no still (undefined). One
 * entry per format, none by default (lib/output-formats.ts).
 */
const IMAGE_ENCODERS: Record<OutputFormatName, ((image: Sharp) => Promise<Buffer>) | undefined> = {
  png: (image) => image.png().toBuffer(),
  jpeg: (image) => image.jpeg({ quality: IMAGE_QUALITY, mozjpeg: false }).toBuffer(),
  webp: (image) => image.webp({ quality: IMAGE_QUALITY }).toBuffer(),
  mp4: undefined,
  webm: undefined,
  mov: undefined,
  gif: undefined,
  mp3: undefined,
  wav: undefined,
};

/** The frame encoded as a still of `format` (IMAGE_ENCODERS); a format without stills is a bug upstream. */
export function encodeImage(frame: RgbFrame, format: OutputFormatName): Promise<Buffer> {
  const encode = IMAGE_ENCODERS[format];
  if (!encode) throw new Error(`output format ${format} is not a still`);
  return encode(
    sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels ?? 3 } }),
  );
}

/** The thumbnail: WebP, THUMBNAIL_SIZE on the long side (never enlarged), aspect kept. */
export function encodeThumbnail(frame: RgbFrame): Promise<Buffer> {
  const landscape = frame.width >= frame.height;
  return sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels ?? 3 } })
    .resize({
      ...(landscape ? { width: THUMBNAIL_SIZE } : { height: THUMBNAIL_SIZE }),
      withoutEnlargement: true,
      kernel: 'lanczos3',
    })
    .webp({ quality: 80 })
    .toBuffer();
}
