/**
 * Which rows of a table changed, for caches that must not serve a stale row. Two sources feed it:
 * this process publishes the ids it changed right after its transaction commits (so a read in the
 * same process that follows a write sees the write), and on PostgreSQL a trigger NOTIFYs every
 * change by any process, which arrives here through LISTEN. A `null` id means "anything may have
 * changed" (the LISTEN connection was re-established and notifications may have been missed).
 */
export type ChangeListener = (id: string | null) => void;

/** Starts listening remotely; resolves to a function that stops. */
export type RemoteSource = (publish: ChangeListener) => Promise<() => Promise<void>>;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  private remote: Promise<() => Promise<void>> | undefined;

  constructor(private readonly source?: RemoteSource) {}

  /** Subscribes; the remote source starts with the first subscriber and stops with the last. */
  async subscribe(listener: ChangeListener): Promise<() => Promise<void>> {
    this.listeners.add(listener);
    if (this.source && !this.remote) this.remote = this.source((id) => this.publish(id));
    await this.remote;
    return async () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.remote) {
        const stop = await this.remote;
        this.remote = undefined;
        await stop();
      }
    };
  }

  publish(id: string | null): void {
    for (const listener of this.listeners) listener(id);
  }
}
