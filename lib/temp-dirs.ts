/**
 * The scratch directories of renders (decoded textures, rasterised lines, encoder chunks: up to
 * gigabytes). Each is made with a note of its owner, this machine's host name and process id, so
 * that one left behind by a process killed outright (SIGKILL, the OOM killer, a power cut: no
 * `finally` ran) is found and removed when a worker next starts, and a live render's never is.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from './logger.ts';
import { processAlive } from './process/alive.ts';

const OWNER = '.owner';
const PREFIX = /^framewright-(render|still|audio|step)-/;
/** A directory without an owner note (made by an older release) is removed past this age. */
const UNOWNED_MAX_AGE_MS = 24 * 3_600_000;

/**
 * A new scratch directory `framewright-<kind>-XXXXXX` under `root` (the system's temporary
 * directory unless a render is given one), noted as this process's.
 */
export function makeTempDir(kind: 'render' | 'still' | 'audio' | 'step', root = tmpdir()): string {
  const dir = mkdtempSync(join(root, `framewright-${kind}-`));
  writeFileSync(join(dir, OWNER), `${hostname()} ${process.pid}\n`);
  return dir;
}

/**
 * Removes a directory made by makeTempDir, its owner note last: a process killed while removing
 * it (a SIGKILL in the middle of a large directory) leaves a directory that still names its dead
 * owner, which the next sweep removes, never an unowned one kept for a day.
 */
export function removeTempDir(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name !== OWNER) rmSync(join(dir, name), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Removes the scratch directories under `root` (the temporary directory by default) whose owner is a process of this host that no
 * longer runs (and those without an owner note older than a day); another host's (a shared
 * volume) and live ones are left. Answers how many it removed; never throws.
 */
export function sweepStaleTempDirs(opts: { logger?: Logger | undefined; root?: string; now?: number } = {}): number {
  const { logger, root = tmpdir(), now = Date.now() } = opts;
  let entries: string[];
  try {
    entries = readdirSync(root).filter((name) => PREFIX.test(name));
  } catch {
    return 0;
  }
  const host = hostname();
  let removed = 0;
  for (const name of entries) {
    const dir = join(root, name);
    try {
      let stale: boolean;
      try {
        const [owner, pid] = readFileSync(join(dir, OWNER), 'utf8').trim().split(' ');
        stale = owner === host && pid !== String(process.pid) && !processAlive(Number(pid));
      } catch {
        stale = now - statSync(dir).mtimeMs > UNOWNED_MAX_AGE_MS;
      }
      if (!stale) continue;
      rmSync(dir, { recursive: true, force: true });
      removed++;
    } catch (err) {
      logger?.warn({ err, dir }, 'a stale render scratch directory could not be removed');
    }
  }
  if (removed > 0) logger?.info({ removed, root }, 'removed scratch directories of renders whose process had died');
  return removed;
}
