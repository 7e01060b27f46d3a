import { readdirSync, readFileSync } from 'node:fs';

/** Wall time, CPU seconds and peak memory of a step, for the benchmarks (Linux /proc). */

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
export function treeCpuSec(): number {
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
