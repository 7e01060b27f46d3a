import type { AuthContext } from '../auth/auth-context.ts';
import type { RenderResource } from './render-resource.ts';

interface Entry {
  accountId: string;
  mode: string;
  /** The resource as its response body: a hit is sent without serialising again. */
  json: string;
  expiresAtMs: number;
}

/**
 * Render resources by id for GET /v1/renders/{id}, the endpoint clients poll while a render runs.
 * Correctness comes from eviction, not from the time limit: every change to a render row evicts
 * it (store/change-feed.ts: this process's own writes as they commit, other processes' through
 * the trigger's NOTIFY), and `ttlMs` only bounds how long a notification lost to a dropped
 * connection could leave an entry stale. A read that raced with a change is not cached: each
 * eviction bumps `generation`, and `set` refuses a row read under an older generation. Entries
 * remember their owner; a hit for another account or mode is a miss, never a leak. Misses
 * (unknown ids) are not cached. Bounded; the oldest entries go first.
 */
export class RenderCache {
  private readonly entries = new Map<string, Entry>();
  private generationValue = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Read before the database read; pass it to `set`. */
  get generation(): number {
    return this.generationValue;
  }

  /** The cached response body of render `id` for this owner, if fresh. */
  get(id: string, owner: AuthContext, nowMs: number): string | undefined {
    const hit = this.entries.get(id);
    if (!hit || hit.accountId !== owner.accountId || hit.mode !== owner.mode) return undefined;
    if (hit.expiresAtMs <= nowMs) {
      this.entries.delete(id);
      return undefined;
    }
    return hit.json;
  }

  set(resource: RenderResource, owner: AuthContext, readAtGeneration: number, nowMs: number): void {
    if (!this.enabled || readAtGeneration !== this.generationValue) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(resource.id)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(resource.id, {
      accountId: owner.accountId,
      mode: owner.mode,
      json: JSON.stringify(resource),
      expiresAtMs: nowMs + this.ttlMs,
    });
  }

  /** A render changed (`null`: any may have). */
  evict(id: string | null): void {
    this.generationValue++;
    if (id === null) this.entries.clear();
    else this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}
