import { touchKeyLastUsed } from '../../store/api-keys-repo.ts';
import type { Queryable } from '../../store/database.ts';

/** How stale "last used" may get: the column is shown to the minute. */
const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Keeps `api_keys.last_used_at` current to the minute without a write per request: a key's first
 * authenticated request in each minute (per process) starts one UPDATE, which the request does
 * not wait for. Every other request costs one Map lookup. A failed write (the database is down)
 * is dropped: the next minute's request tries again, and "last used" is a hint, not a record.
 */
export class LastUsedRecorder {
  /** Key id -> when this process last wrote it (ms); bounded, oldest first out. */
  private readonly written = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly sql: Queryable,
    private readonly onError: (err: unknown) => void,
    private readonly maxEntries = 10_000,
  ) {}

  /** Called after every successful authentication, with the request's clock reading (ms). */
  touch(keyId: string, nowMs: number): void {
    const last = this.written.get(keyId);
    if (last !== undefined && nowMs - last < LAST_USED_INTERVAL_MS) return;
    this.written.delete(keyId); // re-inserted last: Map order is then write order
    if (this.written.size >= this.maxEntries) {
      const oldest = this.written.keys().next().value;
      if (oldest !== undefined) this.written.delete(oldest);
    }
    this.written.set(keyId, nowMs);
    const write = touchKeyLastUsed(this.sql, keyId, new Date(nowMs)).catch((err) => {
      this.written.delete(keyId); // try again on the next request
      this.onError(err);
    });
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Waits for the writes under way (the app awaits it on close, before the database goes). */
  async settle(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
