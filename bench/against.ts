/**
 * `framewright bench render --against DIR`: the three benchmark movies (bench-60s, the text-heavy
 * bench-60s-text, the motion-graphics bench-60s-motion with its keyed clip) rendered by this
 * checkout and by another one (DIR: scripts/bench-baseline.sh makes it from a commit, as
 * `make bench-render` does with BENCH_BASE), each through its own `bin/framewright render` as a
 * whole process, alternately (baseline, this, baseline, this...), so both see the same drift of
 * this machine's speed. Prints each movie's median wall time, CPU seconds and peak RSS of the two,
 * and their ratio: whether a change to drawing (a backend, a shader) left the CPU path no slower.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Movie } from '../movie/index.ts';
import { measure, textTable } from './measure.ts';

/** The CLI of a checkout, run to the end; its output is kept only to say why it failed. */
function renderWith(checkout: string, movieFile: string, output: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // A child with the environment a user's shell would give it: the baseline's Xvfb, this one's EGL.
    const child = spawn(join(checkout, 'bin/framewright'), ['render', movieFile, '-o', output], {
      env: { ...process.env, ALLOW_PRIVATE_URLS: 'true', FRAMEWRIGHT_FROM: 'source' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${checkout}: render ${movieFile} exited ${code}: ${err}`)),
    );
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface AgainstMovie {
  name: string;
  movie: Movie;
}

/**
 * Renders each movie `reps` times with each checkout, alternated, and prints the table. Returns
 * the largest ratio of this checkout's median wall time to the baseline's.
 */
export async function renderAgainst(
  here: string,
  baseline: string,
  movies: AgainstMovie[],
  dir: string,
  reps: number,
): Promise<number> {
  const rows: string[][] = [];
  let worst = 0;
  for (const [i, { name, movie }] of movies.entries()) {
    const file = join(dir, `against-${i}.json`);
    writeFileSync(file, JSON.stringify(movie));
    const runs = {
      baseline: [] as Awaited<ReturnType<typeof measure>>[],
      here: [] as Awaited<ReturnType<typeof measure>>[],
    };
    for (let n = 0; n < reps; n++) {
      for (const [who, checkout] of [
        ['baseline', baseline],
        ['here', here],
      ] as const) {
        process.stderr.write(
          `rendering ${name} with ${who === 'here' ? 'this checkout' : 'the baseline'} (${n + 1}/${reps})...\n`,
        );
        runs[who].push(await measure(() => renderWith(checkout, file, join(dir, `against-${who}.mp4`))));
      }
    }
    const wall = (w: keyof typeof runs) => median(runs[w].map((m) => m.wallSec));
    const cpu = (w: keyof typeof runs) => median(runs[w].map((m) => m.cpuSec));
    const peak = (w: keyof typeof runs) => median(runs[w].map((m) => m.peakMb));
    const ratio = wall('here') / wall('baseline');
    worst = Math.max(worst, ratio);
    rows.push([
      name,
      `${wall('baseline').toFixed(2)} (${runs.baseline.map((m) => m.wallSec.toFixed(1)).join(', ')})`,
      `${wall('here').toFixed(2)} (${runs.here.map((m) => m.wallSec.toFixed(1)).join(', ')})`,
      ratio.toFixed(3),
      `${cpu('baseline').toFixed(1)} / ${cpu('here').toFixed(1)}`,
      `${peak('baseline').toFixed(0)} / ${peak('here').toFixed(0)}`,
    ]);
  }
  const header = [
    'movie',
    'baseline wall s (runs)',
    'this wall s (runs)',
    'this/baseline',
    'CPU s b/t',
    'peak RSS MB b/t',
  ];
  process.stdout.write(
    `\nthis checkout (${here}) against the baseline (${baseline}), medians of ${reps} alternated renders each:\n` +
      `${textTable(header, rows)}\n` +
      `\nslowest ratio ${worst.toFixed(3)} (target <= 1.0, no slower: ${worst <= 1 ? 'met' : 'MISSED'})\n`,
  );
  return worst;
}
