import type { Database } from '../../store/database.ts';
import { insertQueuedRender } from './cluster-fixture.ts';

/** How many renders of each kind `seedRenders` makes. */
export interface RenderCounts {
  /** Done, no lease: the history a long-lived installation keeps. */
  finished: number;
  /** Rendering, each held by its own holder (`holder<N>` for `rnd_run<N>`) for 10 minutes more. */
  running: number;
  /** Queued, the oldest `rnd_wait<queued>`. */
  queued: number;
}

/**
 * Renders of one account made in bulk by the server (tens of thousands inserted one by one would
 * take minutes): `rnd_done<N>`, `rnd_run<N>` and `rnd_wait<N>`, created N seconds ago, all copies
 * of one tiny movie. Then ANALYZE, so that the planner knows the table as a live one would be.
 */
export async function seedRenders(
  db: Database,
  owner: { accountId: string; keyId: string },
  counts: RenderCounts,
): Promise<void> {
  const model = await insertQueuedRender(db.sql, { ...owner, movie: { scenes: [] } });
  const copies = (prefix: string, n: number, status: string, progress: number, leaseAndAttempts: string) =>
    db.sql.unsafe(
      `INSERT INTO renders (id, account_id, mode, key_id, status, progress, draft, watermark, movie, output_format,
         width, height, fps, estimated_sec, reserved_credits, created_at, updated_at, lease_owner, lease_expires_at,
         attempts)
       SELECT '${prefix}' || g, account_id, mode, key_id, '${status}', ${progress}, draft, watermark, movie,
         output_format, width, height, fps, estimated_sec, 0, now() - g * interval '1 second', now(), ${leaseAndAttempts}
       FROM renders, generate_series(1, ${n}) g WHERE id = $1`,
      [model.id],
    );
  await copies('rnd_done', counts.finished, 'done', 100, 'NULL, NULL, 1');
  await copies('rnd_run', counts.running, 'rendering', 50, `'holder' || g, now() + interval '10 minutes', 1`);
  await copies('rnd_wait', counts.queued, 'queued', 0, 'NULL, NULL, 0');
  await db.sql.unsafe('DELETE FROM renders WHERE id = $1', [model.id]);
  await db.sql`ANALYZE renders`;
}
