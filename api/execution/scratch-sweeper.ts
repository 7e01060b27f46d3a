import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../lib/logger.ts';
import { sweepStaleTempDirs } from '../../lib/temp-dirs.ts';
import type { Database } from '../../store/database.ts';

/** Where serve keeps files while it works, under DATA_DIR: the one place that spells them. */
export function scratchDirs(dataDir: string): { renders: string; uploads: string } {
  return {
    // Each render attempt's output and the worker's files beside it (.part, chunk lists, chunks).
    renders: path.join(dataDir, 'tmp', 'renders'),
    // Asset uploads while they stream in (decoding needs the whole file; memory must not hold it).
    uploads: path.join(dataDir, 'tmp', 'uploads'),
  };
}

/**
 * Where an attempt writes its output: `<render id>.<attempt>-<attempt id>.mp4` in the renders
 * scratch directory; the worker's files beside it add suffixes. ATTEMPT_FILE reads the name back.
 */
export function attemptOutput(rendersDir: string, renderId: string, attempt: number, attemptId: string): string {
  return path.join(rendersDir, `${renderId}.${attempt}-${attemptId}.mp4`);
}
const ATTEMPT_FILE = /^(rnd_[0-9a-z]+)\.\d+-([0-9a-f]+)\.mp4(?:\..+)?$/;

/** An upload staged and not written to for this long is one whose request is over. */
const STAGED_UPLOAD_MAX_IDLE_MS = 3_600_000;

/**
 * Removes what a serve killed outright (SIGKILL, the OOM killer, a power cut: no `finally` ran)
 * left under DATA_DIR/tmp, and answers how many files and directories it removed:
 * - in `renders`, the files of attempts that no longer hold their render: each attempt's files
 *   carry its attempt id, and an attempt holds its render while the render runs under an unexpired
 *   lease whose owner ends with `.<attempt id>` (in-process-executor.ts newLease). So a live
 *   attempt's files stay, whichever process runs it (several serves may share DATA_DIR on
 *   PostgreSQL); a killed one's lease runs out within RENDER_LEASE_SEC, which is why serve sweeps
 *   again two leases after it started (pipeline.ts). The attempts of the calling process are
 *   kept whatever their lease says (`running`: one that ran out while the database was away is
 *   still theirs until another claim takes it);
 * - in `uploads`, staged uploads not written to for STAGED_UPLOAD_MAX_IDLE_MS;
 * - in the workers' temporary directory (`workerTmp`), the scratch directories of workers that
 *   have ended (lib/temp-dirs.ts): each worker sweeps it when it starts, but a worker killed
 *   with its server may still be exiting when the next server's workers start, and none may start
 *   for a long while after.
 * Anything else there is left alone. Never throws for a file it could not remove (logged).
 */
export async function sweepScratch(deps: {
  db: Database;
  dataDir: string;
  workerTmp: string;
  /** The attempts the calling process runs: kept whatever their lease (in-process-executor.ts). */
  running: () => readonly string[];
  logger: Logger;
  now: () => Date;
}): Promise<number> {
  const dirs = scratchDirs(deps.dataDir);
  const list = (dir: string) => readdir(dir).catch(() => [] as string[]);
  const remove = async (file: string) => {
    try {
      await rm(file, { recursive: true, force: true });
      return 1;
    } catch (err) {
      deps.logger.warn({ err, file }, 'a scratch file could not be removed');
      return 0;
    }
  };
  let removed = 0;

  const attempts = (await list(dirs.renders)).flatMap((name) => {
    const m = ATTEMPT_FILE.exec(name);
    return m ? [{ name, renderId: m[1] as string, attemptId: m[2] as string }] : [];
  });
  if (attempts.length > 0) {
    const ids = [...new Set(attempts.map((a) => a.renderId))];
    const held = await deps.db.sql<{ id: string; leaseOwner: string | null }[]>`
      SELECT id, lease_owner FROM renders
      WHERE id = ANY(${ids}::text[]) AND status IN ('preparing', 'rendering') AND lease_expires_at > clock_timestamp()`;
    const owners = new Map(held.map((r) => [r.id, r.leaseOwner ?? '']));
    const mine = new Set(deps.running());
    for (const a of attempts) {
      if (mine.has(a.attemptId) || owners.get(a.renderId)?.endsWith(`.${a.attemptId}`)) continue;
      removed += await remove(path.join(dirs.renders, a.name));
    }
  }

  for (const name of await list(dirs.uploads)) {
    const file = path.join(dirs.uploads, name);
    const info = await stat(file).catch(() => undefined);
    if (info && deps.now().getTime() - info.mtimeMs > STAGED_UPLOAD_MAX_IDLE_MS) removed += await remove(file);
  }
  removed += sweepStaleTempDirs({ logger: deps.logger, root: deps.workerTmp, now: deps.now().getTime() });
  if (removed > 0)
    deps.logger.info({ removed, dataDir: deps.dataDir }, 'scratch files left by a stopped server removed');
  return removed;
}
