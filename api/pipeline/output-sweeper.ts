import type { Logger } from '../../lib/logger.ts';
import type { ObjectStore } from '../../lib/storage/object-store.ts';
import type { Database } from '../../store/database.ts';
import { expiredOutputs, markOutputDeleted } from '../../store/lifecycle/outputs-repo.ts';

/**
 * Deletes outputs past their retention (expiresAt) from object storage and marks them deleted, so
 * their links answer 410 Gone. Safe to run from several processes: deleting twice is harmless.
 */
export async function sweepExpiredOutputs(
  deps: { db: Database; objects: ObjectStore; logger: Logger; now: () => Date },
  batch = 100,
): Promise<number> {
  let swept = 0;
  for (;;) {
    const rows = await expiredOutputs(deps.db.sql, deps.now(), batch);
    for (const row of rows) {
      if (row.outputKey) await deps.objects.delete(row.outputKey);
      await markOutputDeleted(deps.db.sql, row.id, deps.now());
      swept++;
    }
    if (rows.length < batch) break;
  }
  if (swept > 0) deps.logger.info({ swept }, 'expired outputs deleted');
  return swept;
}
