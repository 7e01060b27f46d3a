import { readdirSync, readFileSync } from 'node:fs';

/** Wall time, CPU seconds and peak memory of a step, for the benchmarks (Linux /proc). */

const PAGE = 4096;

/** `root` and all its descendants (Linux /proc). */
function tree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return [...parent.keys()].filter((pid) => {
    let p: number | undefined = pid;
    while (p !== undefined && p > 1 && p !== root) p = parent.get(p);
    return p === root;
  });
}

/** Sums a number read from each process's file; processes that ended count 0. */
function sum(pids: number[], read: (pid: number) => number): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += read(pid);
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/**
 * The tree's resident memory: the sum of its processes' RSS (what the target is about; it counts
 * a shared library once per process that maps it, so node, libLLVM and friends are counted
 * several times).
 */
const treeRss = (pids: number[]) =>
  sum(pids, (pid) => Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE);

/**
 * The sum of their PSS (shared pages split between the processes sharing them: the tree's real
 * footprint). The kernel walks every mapping for it, about 2 ms a process of a few hundred MB,
 * so it is read less often than RSS: at 10 samples a second it cost a render over a clip (ten
 * processes) 7% of the machine.
 */
const treePss = (pids: number[]) =>
  sum(
    pids,
    (pid) => Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024,
  );

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

export async function measure<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; wallSec: number; peakMb: number; peakPssMb: number; cpuSec: number }> {
  let peak = 0;
  let peakPss = 0;
  let n = 0;
  // RSS 10 times a second, PSS twice.
  const sample = () => {
    const pids = tree(process.pid);
    peak = Math.max(peak, treeRss(pids));
    if (n++ % 5 === 0) peakPss = Math.max(peakPss, treePss(pids));
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

/** Rows under a header, columns as wide as their widest cell: the first left-aligned, the others right. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [header, ...rows].map(line).join('\n');
}
