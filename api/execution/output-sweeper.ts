import type { Logger } from '../../lib/logger.ts';
import { removeWork } from '../../lib/render-work.ts';
import { movieKey, posterKey, thumbnailKey } from '../../lib/storage/keys.ts';
import type { ObjectStore } from '../../lib/storage/object-store.ts';
import type { Database } from '../../store/database.ts';
import { deleteExpiredIdempotencyRecords } from '../../store/idempotency-repo.ts';
import { expiredOutputs, markOutputDeleted, markWorkSwept, unsweptWork } from '../../store/lifecycle/outputs-repo.ts';
import { deleteFinishedDeliveries } from '../../store/lifecycle/webhook-outbox-repo.ts';

/**
 * Deletes outputs past their retention (expiresAt) from object storage, with their poster and
 * thumbnail (absent for some formats: deleting a missing key is harmless), and marks them deleted,
 * so their links answer 410 Gone. Safe to run from several processes: deleting twice is harmless.
 */
export async function sweepExpiredOutputs(
  deps: { db: Database; objects: ObjectStore; logger: Logger; now: () => Date },
  batch = 100,
): Promise<number> {
  let swept = 0;
  for (;;) {
    const rows = await expiredOutputs(deps.db.sql, deps.now(), batch);
    for (const row of rows) {
      if (row.outputKey) {
        await deps.objects.delete(row.outputKey);
        await deps.objects.delete(posterKey(row.id));
        await deps.objects.delete(thumbnailKey(row.id));
      }
      await markOutputDeleted(deps.db.sql, row.id, deps.now());
      swept++;
    }
    if (rows.length < batch) break;
  }
  if (swept > 0) deps.logger.info({ swept }, 'expired outputs deleted');
  return swept;
}

/** How long after a render finished its work objects are looked for: its last pods are gone by then. */
export const WORK_GRACE_MS = 15 * 60_000;

/**
 * Removes the work objects (`work/<id>/`) of finished renders that were spread over pods and did
 * not get to their join's clean-up: a failed or cancelled render, a join stopped after reporting;
 * and the movie document the Kubernetes executor stored for the render's pods (`movies/<id>.json`),
 * which no pod reads once the render has finished (the database keeps the movie). Each finished
 * render is looked at once, WORK_GRACE_MS after it finished (one object-store read and one delete
 * for a render that had neither). Safe to run from several processes.
 */
export async function sweepRenderWork(
  deps: { db: Database; objects: ObjectStore; logger: Logger; now: () => Date },
  batch = 100,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const ids = await unsweptWork(deps.db.sql, new Date(deps.now().getTime() - WORK_GRACE_MS), batch);
    for (const id of ids) {
      removed += await removeWork(deps.objects, id, deps.logger);
      await deps.objects.delete(movieKey(id));
      await markWorkSwept(deps.db.sql, id, deps.now());
    }
    if (ids.length < batch) break;
  }
  if (removed > 0) deps.logger.info({ removed }, 'work objects of finished renders removed');
  return removed;
}

/** The default of WEBHOOK_RETENTION_DAYS: how long a finished webhook delivery is kept. */
export const DEFAULT_WEBHOOK_RETENTION_DAYS = 7;

/** What one sweep of the growing tables removed. */
export interface RowsSwept {
  idempotencyKeys: number;
  webhookDeliveries: number;
}

/**
 * Deletes the rows that would otherwise grow without bound: idempotency records past their 24-hour
 * window (store/idempotency-repo.ts, where the window is) and webhook deliveries that finished
 * (delivered or given up) more than `webhookRetentionMs` ago. In batches, so that no statement
 * holds many row locks for long. Safe to run from several processes.
 */
export async function sweepRows(
  deps: { db: Database; logger: Logger; now: () => Date; webhookRetentionMs: number },
  batch = 1_000,
): Promise<RowsSwept> {
  const swept: RowsSwept = { idempotencyKeys: 0, webhookDeliveries: 0 };
  let n: number;
  do {
    n = await deleteExpiredIdempotencyRecords(deps.db.sql, deps.now(), batch);
    swept.idempotencyKeys += n;
  } while (n === batch);
  const before = new Date(deps.now().getTime() - deps.webhookRetentionMs);
  do {
    n = await deleteFinishedDeliveries(deps.db.sql, before, batch);
    swept.webhookDeliveries += n;
  } while (n === batch);
  if (swept.idempotencyKeys + swept.webhookDeliveries > 0) {
    deps.logger.info(swept, 'expired idempotency records and old webhook deliveries deleted');
  }
  return swept;
}
