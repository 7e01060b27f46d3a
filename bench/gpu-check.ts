/**
 * `framewright bench gpu-check` (`make gpu-check`): the three benchmark movies (bench-60s, the
 * text-heavy bench-60s-text, the motion-graphics bench-60s-motion with its keyed clip) drawn
 * through the GPU path (ANGLE on the EGL this machine's libglvnd chooses: the GPU driver's where
 * there is one) and through the CPU path (the same ANGLE on Mesa's EGL, llvmpipe, forced with
 * `__EGL_VENDOR_LIBRARY_FILENAMES`), each path in a process of its own (ANGLE opens one display a
 * process). For each movie it prints the GPU path's renderer string, the frames per second of
 * drawing (drawing and reading back the frames that were drawn), of encoding (the codec the probe
 * chose encoding the movie's frames alone) and end to end, and the largest difference, in 8-bit
 * YUV levels, between any pixel of any frame of the two paths (both rendered losslessly).
 *
 * On a machine without a GPU both paths draw on llvmpipe: the check runs, says so, and its
 * difference is 0. It is what the README's GPU figures come from.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Movie, validateMovie } from '../movie/index.ts';
import { workerConfigFromEnv } from '../worker/cli/config.ts';
import { drawingBackend } from '../worker/draw/backend/backend.ts';
import type { GlRenderer } from '../worker/draw/backend/renderer.ts';
import { chooseCodec } from '../worker/encode/encoder-probe.ts';
import { codecArgs, QUIET } from '../worker/encode/ffmpeg-args.ts';
import { runFfmpeg } from '../worker/encode/ffmpeg-process.ts';
import { renderMovie } from '../worker/run/render-movie.ts';
import { textTable } from './measure.ts';
import { withKeyedClip } from './motion.ts';
import { mediaSources } from './render.ts';

/** Mesa's EGL vendor file: libglvnd loads only it, so ANGLE draws on llvmpipe even beside a GPU driver. */
const MESA_VENDOR = ['/usr/share/glvnd/egl_vendor.d/50_mesa.json', '/etc/glvnd/egl_vendor.d/50_mesa.json'];

const MOVIES = ['examples/bench-60s.json', 'examples/bench-60s-text.json', 'examples/bench-60s-motion.json'];

/** What one path measured of one movie. */
interface PathFigures {
  movie: string;
  frames: number;
  drawn: number;
  drawFps: number;
  encodeFps: number;
  endToEndFps: number;
  /** The lossless render, compared with the other path's. */
  lossless: string;
}

interface PathReport {
  renderer: GlRenderer;
  codec: string;
  movies: PathFigures[];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function load(file: string, keyed: string): Movie {
  const checked = validateMovie(JSON.parse(readFileSync(join(ROOT, file), 'utf8')));
  if (!checked.ok) throw new Error(`${file} is not a valid movie: ${JSON.stringify(checked.findings.slice(0, 3))}`);
  return file.includes('motion') ? withKeyedClip(checked.value, keyed) : checked.value;
}

/** `--path`: this process renders every movie on the drawing it finds, and writes its figures as JSON. */
async function measurePath(label: string, dir: string, keyed: string, json: string): Promise<void> {
  const config = { ...workerConfigFromEnv(), allowPrivateUrls: true };
  const surface = await drawingBackend().acquire(config.env);
  await surface.release();
  const { codec } = await chooseCodec(config.ffmpegPath);
  const movies: PathFigures[] = [];
  for (const file of MOVIES) {
    const movie = load(file, keyed);
    const name = file.replace(/^examples\/|\.json$/g, '');
    process.stderr.write(`${label}: rendering ${name}...\n`);
    const started = performance.now();
    const result = await renderMovie({ movie, output: join(dir, `${name}.mp4`), config, codec });
    const wallSec = (performance.now() - started) / 1000;
    const drawSec = result.segmentStats.reduce((n, s) => n + s.drawMs, 0) / 1000;
    const drawn = result.segmentStats.reduce((n, s) => n + s.rendered, 0);
    const lossless = join(dir, `${name}-lossless-${process.pid}.mp4`);
    await renderMovie({ movie, output: lossless, config, codec: 'libx264', quality: 'lossless' });
    // Encoding alone: the movie's frames, decoded from the lossless file, encoded as a render does.
    const t = performance.now();
    await runFfmpeg(config.ffmpegPath, [
      ...[...QUIET, '-y', '-i', lossless, '-an'],
      ...codecArgs(codec, result.fps, 'balanced', availableParallelism()),
      ...['-pix_fmt', 'yuv420p', '-f', 'mp4', join(dir, `${name}-encode.mp4`)],
    ]);
    const encodeSec = (performance.now() - t) / 1000;
    movies.push({
      movie: name,
      frames: result.totalFrames,
      drawn,
      drawFps: drawn / drawSec,
      encodeFps: result.totalFrames / encodeSec,
      endToEndFps: result.totalFrames / wallSec,
      lossless,
    });
  }
  const report: PathReport = { renderer: surface.renderer, codec, movies };
  writeFileSync(json, JSON.stringify(report));
}

/** The largest per-pixel difference of any frame of two videos, in 8-bit levels of any plane. */
async function largestDifference(ffmpeg: string, a: string, b: string): Promise<number> {
  const stats = await new Promise<string>((resolve, reject) => {
    const child = spawn(ffmpeg, [
      ...['-hide_banner', '-nostdin', '-i', a, '-i', b],
      ...['-lavfi', '[0:v][1:v]blend=all_mode=difference,signalstats,metadata=print:file=-', '-f', 'null', '-'],
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`ffmpeg exited ${code}`))));
  });
  let max = 0;
  for (const m of stats.matchAll(/lavfi\.signalstats\.(?:YMAX|UMAX|VMAX)=(\d+)/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/** Runs this benchmark again as a child for one path, with the path's environment. */
function runPath(path: 'gpu' | 'cpu', dir: string, keyed: string, env: NodeJS.ProcessEnv): Promise<PathReport> {
  const json = join(dir, `${path}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      join(ROOT, 'bin/framewright'),
      ['bench', 'gpu-check', `--path=${path}`, `--dir=${dir}`, `--keyed=${keyed}`, `--json=${json}`],
      { env, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(readFileSync(json, 'utf8')) as PathReport)
        : reject(new Error(`the ${path} path exited ${code}`)),
    );
  });
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { path: { type: 'string' }, dir: { type: 'string' }, keyed: { type: 'string' }, json: { type: 'string' } },
  });
  if (values.path) {
    await measurePath(`${values.path} path`, values.dir!, values.keyed!, values.json!);
    return 0;
  }
  const mesa = MESA_VENDOR.find((f) => existsSync(f));
  if (!mesa) {
    process.stderr.write(`gpu-check: no Mesa EGL vendor file (${MESA_VENDOR.join(' or ')}) for the CPU path\n`);
    return 1;
  }
  const config = workerConfigFromEnv();
  const dir = mkdtempSync(join(tmpdir(), 'fw-gpu-check-'));
  const media = await mediaSources(config.ffmpegPath, dir);
  try {
    // DRAWING_DEVICE=any: the check reports a software renderer instead of failing on it.
    const env = { ...process.env, DRAWING_DEVICE: 'any' };
    const gpu = await runPath('gpu', dir, media.keyed, env);
    const cpu = await runPath('cpu', dir, media.keyed, { ...env, __EGL_VENDOR_LIBRARY_FILENAMES: mesa });
    const rows: string[][] = [];
    for (const [i, g] of gpu.movies.entries()) {
      const c = cpu.movies[i]!;
      const diff = await largestDifference(config.ffmpegPath, g.lossless, c.lossless);
      rows.push([
        g.movie,
        `${g.drawn}/${g.frames}`,
        g.drawFps.toFixed(1),
        c.drawFps.toFixed(1),
        g.encodeFps.toFixed(1),
        g.endToEndFps.toFixed(1),
        c.endToEndFps.toFixed(1),
        String(diff),
      ]);
    }
    const header = [
      'movie',
      'drawn/frames',
      'draw fps GPU',
      'draw fps CPU',
      'encode fps',
      'end-to-end fps GPU',
      'end-to-end fps CPU',
      'max diff',
    ];
    process.stdout.write(
      `\nGPU path: ${gpu.renderer.renderer}${gpu.renderer.software ? ' (a SOFTWARE renderer: this machine gives the GPU path no GPU)' : ''}; encoder ${gpu.codec}\n` +
        `CPU path: ${cpu.renderer.renderer}; encoder ${cpu.codec}\n\n` +
        `${textTable(header, rows)}\n\n` +
        "draw fps: frames drawn (and read back) a second of drawing; encode fps: the encoder alone on the movie's frames; " +
        'max diff: the largest difference of any pixel of any frame between the paths, in 8-bit YUV levels (lossless renders)\n',
    );
    return 0;
  } finally {
    media.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
