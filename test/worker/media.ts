/** Helpers for the renderer's tests: probe files and read decoded pixels with the real ffmpeg. */
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';

export interface Probe {
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    r_frame_rate?: string;
    nb_read_frames?: string;
  }[];
  format: { duration: string };
}

export async function probe(file: string): Promise<Probe> {
  const out = await runFfmpeg('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'stream=codec_type,codec_name,width,height,pix_fmt,r_frame_rate,nb_read_frames:format=duration',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(out.toString()) as Probe;
}

/** Frame `n` as RGB24 bytes (BT.709 matrix, as tagged). */
export async function frameRgb(file: string, n: number): Promise<Buffer> {
  return runFfmpeg('ffmpeg', [
    '-v',
    'error',
    '-i',
    file,
    '-vf',
    `select=eq(n\\,${n}),scale=in_color_matrix=bt709:out_color_matrix=bt709,format=rgb24`,
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    '-',
  ]);
}

export function pixel(rgb: Buffer, width: number, x: number, y: number): [number, number, number] {
  const i = (y * width + x) * 3;
  return [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
}

export function near(a: readonly number[], b: readonly number[], tolerance = 10): boolean {
  return a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);
}

/** The brightest luma-ish value in a rectangle: is there text (white) in it? */
export function maxBrightness(rgb: Buffer, width: number, x0: number, y0: number, x1: number, y1: number): number {
  let max = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const [r, g, b] = pixel(rgb, width, x, y);
      max = Math.max(max, Math.min(r, g, b));
    }
  }
  return max;
}

/** Per-frame MD5s of the decoded video: equal lists mean identical pictures. */
export async function frameMd5s(file: string): Promise<string[]> {
  const out = await runFfmpeg('ffmpeg', ['-v', 'error', '-i', file, '-an', '-f', 'framemd5', '-']);
  return out
    .toString()
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').at(-1)!.trim());
}

/** The decoded audio as 48 kHz stereo s16le PCM: equal buffers mean identical sound. */
export async function pcm(file: string): Promise<Buffer> {
  return runFfmpeg('ffmpeg', ['-v', 'error', '-i', file, '-vn', '-f', 's16le', '-ac', '2', '-ar', '48000', '-']);
}
