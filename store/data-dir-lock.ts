import { readFile, rm, writeFile } from 'node:fs/promises';
import { processAlive } from '../lib/process/alive.ts';

/** The directory is locked by another live process (`pid`). */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${pid}. ` +
        'Stop that process first, or run both against a PostgreSQL server (DATABASE_URL).',
    );
  }
}

/**
 * An exclusive pid lock on the embedded database directory. Two PGlite instances on one directory
 * would corrupt it, so a second process is refused (DataDirInUseError; the CLI then uses the
 * holder's database through its wire server when the holder shares it, see database.ts). A lock
 * left by a dead process is taken over.
 */
export async function lockDataDir(lockPath: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return () => rm(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
        throw new DataDirInUseError(lockPath.replace(/\/[^/]+$/, ''), pid);
      }
      await rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockPath}.`);
}
