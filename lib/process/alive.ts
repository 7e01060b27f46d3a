/**
 * Whether a process of this host (its pid namespace) runs: signal 0 checks without sending.
 * EPERM means it exists, run by another user. A pid reused by an unrelated process reads as
 * alive: callers treat "alive" as "keep", which errs on the safe side.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
