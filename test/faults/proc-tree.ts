import { readdirSync, readFileSync } from 'node:fs';

/** One process as /proc shows it. */
export interface Proc {
  pid: number;
  ppid: number;
  /** Clock ticks after boot: with the pid, names one process even when pids are reused. */
  start: string;
  state: string;
  comm: string;
  cmdline: string;
}

function read(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may hold spaces and parentheses: the fields after it start after the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(fields[1]), start: fields[19] ?? '', state: fields[0] ?? '', comm, cmdline };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** Every process on the machine now. */
function processes(): Proc[] {
  const all: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = read(Number(name));
    if (p) all.push(p);
  }
  return all;
}

/** The descendants of `pid` now (children, their children...), not `pid` itself. */
export function descendants(pid: number): Proc[] {
  const all = processes();
  const out: Proc[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        out.push(p);
        grew = true;
      }
    }
  }
  return out;
}

/** Whether this very process (same pid, same start) still runs; a zombie has ended. */
export function stillRunning(p: Proc): boolean {
  const now = read(p.pid);
  return now !== undefined && now.start === p.start && now.state !== 'Z';
}
