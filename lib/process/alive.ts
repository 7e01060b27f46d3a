import { readFileSync } from 'node:fs';

/**
 * Whether a process of this host (its pid namespace) runs: signal 0 checks without sending.
 * EPERM means it exists, run by another user. A zombie (ended, not yet reaped: an orphan under a
 * PID 1 that does not reap, as in a container without an init) has ended, as /proc says on Linux.
 * A pid reused by an unrelated process reads as alive: callers treat "alive" as "keep", which errs
 * on the safe side.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** The state field of /proc/<pid>/stat is Z (false where there is no /proc). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces or ')': the state follows the last one.
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false;
  }
}
