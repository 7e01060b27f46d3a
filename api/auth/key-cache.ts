import type { AuthContext } from './auth-context.ts';

/**
 * Verified keys by hash, each for `ttlMs`, so a hot key costs no database round trip. Only
 * successes are cached: every failure still does the full lookup. Bounded; oldest entries go first.
 */
export class KeyCache {
  private readonly entries = new Map<string, { auth: AuthContext; expiresAtMs: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(hash: string, nowMs: number): AuthContext | undefined {
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (hit.expiresAtMs <= nowMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return hit.auth;
  }

  set(hash: string, auth: AuthContext, nowMs: number): void {
    if (!this.enabled) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { auth, expiresAtMs: nowMs + this.ttlMs });
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
