/**
 * `framewright bench render`: renders examples/bench-60s.json (serial and --parallel 2) and a
 * silent variant, and prints wall time, realtime factor, frames per second and the peak RSS of
 * the whole process tree, beside the encode floor measured in the same run: ffmpeg alone encoding
 * the same number of frames, same size and settings, from a yuv420p source.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Movie, validateMovie } from '../movie/index.ts';
import { chooseCodec } from '../worker/encoder-probe.ts';
import { codecArgs, QUIET } from '../worker/ffmpeg-args.ts';
import { runFfmpeg } from '../worker/ffmpeg-process.ts';
import { renderMovie, workerConfigFromEnv } from '../worker/render-movie.ts';

const PAGE = 4096;

/**
 * Memory of `root` and all its descendants, from /proc (Linux): the sum of their RSS (what the
 * target is about; it counts a shared library once per process that maps it, so node, libLLVM
 * and friends are counted several times) and the sum of their PSS (shared pages split between
 * the processes sharing them: the tree's real footprint).
 */
function treeMemoryBytes(root: number): { rss: number; pss: number } {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      rss.set(Number(name), Number(fields[21]) * PAGE);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  let pss = 0;
  for (const [pid, bytes] of rss) {
    let p: number | undefined = pid;
    while (p !== undefined && p > 1 && p !== root) p = parent.get(p);
    if (p !== root) continue;
    total += bytes;
    try {
      const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
      pss += Number(kb ?? 0) * 1024;
    } catch {
      // The process ended while we looked.
    }
  }
  return { rss: total, pss };
}

/**
 * CPU seconds of this process plus every child it has reaped (which include their own reaped
 * children: ffmpeg under a segment child). Wall time on a shared machine depends on the
 * neighbours; CPU time much less so.
 */
function treeCpuSec(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime are fields 14-17 of stat(5); f starts at field 3.
  const ticks = [11, 12, 13, 14].reduce((a, i) => a + Number(f[i]), 0);
  return ticks / 100;
}

async function measure<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; wallSec: number; peakMb: number; peakPssMb: number; cpuSec: number }> {
  let peak = 0;
  let peakPss = 0;
  const sample = () => {
    const m = treeMemoryBytes(process.pid);
    peak = Math.max(peak, m.rss);
    peakPss = Math.max(peakPss, m.pss);
  };
  sample();
  const cpu0 = treeCpuSec();
  const timer = setInterval(sample, 100);
  const started = performance.now();
  try {
    const value = await fn();
    return {
      value,
      wallSec: (performance.now() - started) / 1000,
      peakMb: peak / 1024 / 1024,
      peakPssMb: peakPss / 1024 / 1024,
      cpuSec: treeCpuSec() - cpu0,
    };
  } finally {
    clearInterval(timer);
  }
}

function silentVariant(movie: Movie): Movie {
  return {
    ...movie,
    scenes: movie.scenes.map((s) => ({
      ...s,
      duration: s.duration === 'voice' ? 10 : s.duration,
      elements: s.elements.filter((e) => e.type !== 'voice' && e.type !== 'subtitles'),
    })),
  };
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { movie: { type: 'string', default: 'examples/bench-60s.json' }, quick: { type: 'boolean' } },
  });
  const checked = validateMovie(JSON.parse(readFileSync(values.movie!, 'utf8')));
  if (!checked.ok) {
    process.stderr.write(`${values.movie} is not a valid movie: ${JSON.stringify(checked.findings.slice(0, 3))}\n`);
    return 1;
  }
  const config = workerConfigFromEnv();
  const { codec, reason } = await chooseCodec(config.ffmpegPath);
  const dir = mkdtempSync(join(tmpdir(), 'fw-bench-render-'));
  const rows: string[][] = [];
  const line = (cells: (string | number)[]) => rows.push(cells.map(String));
  try {
    process.stderr.write(`encoder: ${codec} (${reason.slice(0, 120)})\n`);
    const runs: [string, Movie, number][] = [
      ['bench-60s (voice, subtitles)', checked.value, 1],
      ['bench-60s --parallel 2', checked.value, 2],
      ['bench-60s silent variant', silentVariant(checked.value), 1],
    ];
    let frames = 0;
    let width = 0;
    let height = 0;
    let fps = 30;
    for (const [name, movie, parallel] of values.quick ? runs.slice(0, 1) : runs) {
      process.stderr.write(`rendering ${name}...\n`);
      const m = await measure(() => renderMovie({ movie, output: join(dir, 'out.mp4'), config, parallel, codec }));
      const r = m.value;
      frames = r.totalFrames;
      ({ width, height, fps } = r);
      line([
        name,
        m.wallSec.toFixed(2),
        (r.durationSec / m.wallSec).toFixed(2),
        (r.totalFrames / m.wallSec).toFixed(1),
        m.cpuSec.toFixed(1),
        m.peakMb.toFixed(0),
        m.peakPssMb.toFixed(0),
        `${r.renderedFrames}/${r.totalFrames} drawn`,
      ]);
    }
    process.stderr.write('measuring the encode floor...\n');
    const floor = await measure(() =>
      runFfmpeg(config.ffmpegPath, [
        ...QUIET,
        '-y',
        '-f',
        'lavfi',
        '-i',
        `color=c=0x1a2238:s=${width}x${height}:r=${fps},format=yuv420p`,
        '-frames:v',
        String(frames),
        ...codecArgs(codec, fps),
        '-pix_fmt',
        'yuv420p',
        '-f',
        'mp4',
        join(dir, 'floor.mp4'),
      ]),
    );
    const floorRow = [
      `encode floor (ffmpeg alone, ${frames} frames)`,
      floor.wallSec.toFixed(2),
      (frames / fps / floor.wallSec).toFixed(2),
      (frames / floor.wallSec).toFixed(1),
      floor.cpuSec.toFixed(1),
      floor.peakMb.toFixed(0),
      floor.peakPssMb.toFixed(0),
      '',
    ];
    rows.push(floorRow);
    const header = ['run', 'wall s', 'x realtime', 'fps', 'CPU s', 'peak RSS MB', 'peak PSS MB', 'notes'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    process.stdout.write(`\n${fmt(header)}\n${rows.map(fmt).join('\n')}\n`);
    const serial = Number(rows[0]![1]);
    const serialCpu = Number(rows[0]![4]);
    process.stdout.write(
      `\nserial wall / encode floor = ${(serial / floor.wallSec).toFixed(2)} (target <= 1.3); ` +
        `CPU ratio ${(serialCpu / floor.cpuSec).toFixed(2)}; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}; ` +
        `${width}x${height}@${fps}, ${codec}; measured ${new Date().toISOString()}\n`,
    );
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
