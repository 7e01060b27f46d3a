import { pino } from 'pino';
import { abortableSleep, type BackoffPolicy, jitteredDelay } from '../../lib/backoff.ts';
import type { KubeAccess } from '../../lib/kube/access.ts';
import { KubeApiError, kubeRequest, kubeStream } from '../../lib/kube/http.ts';
import type { Logger } from '../../lib/logger.ts';

/** The part of a Kubernetes object the informer reads. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
}

interface ObjectList<T> {
  items?: T[];
  metadata?: { resourceVersion?: string; continue?: string };
}

interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T & { code?: number; reason?: string; message?: string };
}

/** Called for every change of the cache. Handlers should be quick (enqueue a key and return). */
export interface InformerHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
  /** One callback for all three: the object now, or undefined once it is gone. */
  onChange?(key: string, obj: T | undefined): void;
}

export interface InformerOptions<T> {
  /** Collection path, e.g. `/apis/batch/v1/namespaces/ns/jobs`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Items per list page (`limit`); 0 lists in one request. Default 500. */
  pageSize?: number;
  /**
   * Seconds after which the server ends each watch (the informer then re-watches from its last
   * resourceVersion). Default: random in [300, 600), as client-go, so replicas do not re-watch
   * in step.
   */
  watchTimeoutSeconds?: number;
  /**
   * Longest silence (no event, no bookmark) tolerated on an open watch before it is torn down and
   * restarted: a connection that died without a FIN never ends on its own. The apiserver sends a
   * bookmark about once a minute to watchers that allow them, so the default is 90 s.
   */
  silenceMs?: number;
  /** Wait between failed attempts (list or watch). Default 0.5 s doubling to 30 s, jittered. */
  backoff?: BackoffPolicy;
  /** Bound on one list request. Default 60 s. */
  listTimeoutMs?: number;
  /** Cache key of an object. Default `namespace/name` (`name` when cluster-scoped), as client-go. */
  keyOf?: (obj: NoInfer<T>) => string;
  logger?: Logger;
}

/** What the informer did so far; for tests and metrics. */
export interface InformerStats {
  /** Successful full lists, the first included. */
  lists: number;
  /** Lists after the first (a 410 Gone, or a list that had to be redone). */
  relists: number;
  /** Watches opened. */
  watches: number;
  /** Watches ended by the server as asked (timeoutSeconds), resumed from the last resourceVersion. */
  watchEnds: number;
  /** Watches that failed (connection error, apiserver gone, non-2xx) and were retried after a backoff. */
  restarts: number;
  /** 410 Gone answers (HTTP or ERROR event). */
  gone: number;
  /** Watches torn down because they stayed silent for `silenceMs`. */
  watchdogFires: number;
  /** Failed list attempts. */
  listErrors: number;
  events: number;
  bookmarks: number;
  /** Handlers that threw (the informer carries on). */
  handlerErrors: number;
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, factor: 2, capMs: 30_000 };

/** client-go's MetaNamespaceKeyFunc: `namespace/name`, or `name` for cluster-scoped objects. */
function metaNamespaceKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

type WatchOutcome = 'ended' | 'gone' | 'silent' | 'stopped';

/**
 * A list+watch cache of one collection, the reflector of client-go in small: list, then watch from
 * the list's resourceVersion with bookmarks; a watch ended by the server resumes from the last
 * resourceVersion seen (no relist); 410 Gone relists and reconciles the cache (deletes for what
 * vanished meanwhile, adds and updates for the rest); a failed request backs off (jittered,
 * capped) and retries forever; a watch silent for `silenceMs` is torn down and restarted.
 *
 * Built on a raw streamed GET rather than client-node's `makeInformer`/`Watch`: in 1.4.0 and 2.0.1
 * the informer stops for good on any error but 410 (2.0 adds a client-side timeout), and `Watch`
 * hands back its AbortController only once response headers arrived, so a watch hung before them
 * cannot be aborted by its caller.
 */
export class Informer<T extends KubeObject> {
  readonly stats: InformerStats = {
    lists: 0,
    relists: 0,
    watches: 0,
    watchEnds: 0,
    restarts: 0,
    gone: 0,
    watchdogFires: 0,
    listErrors: 0,
    events: 0,
    bookmarks: 0,
    handlerErrors: 0,
  };
  /** Resolves once the first list is in the cache; rejects if the informer is stopped before. */
  readonly synced: Promise<void>;

  readonly #kc: KubeAccess;
  readonly #opts: InformerOptions<T>;
  readonly #keyOf: (obj: T) => string;
  readonly #log: Logger;
  readonly #cache = new Map<string, T>();
  readonly #handlers = new Set<InformerHandlers<T>>();
  #resourceVersion = '';
  #hasSynced = false;
  #resolveSynced!: () => void;
  #rejectSynced!: (err: Error) => void;
  #stop: AbortController | undefined;
  #loop: Promise<void> | undefined;

  constructor(kc: KubeAccess, options: InformerOptions<T>) {
    this.#kc = kc;
    this.#opts = options;
    this.#keyOf = options.keyOf ?? metaNamespaceKey;
    this.#log = options.logger ?? pino({ level: 'silent' });
    this.synced = new Promise<void>((resolve, reject) => {
      this.#resolveSynced = resolve;
      this.#rejectSynced = reject;
    });
    // Nobody may be waiting on `synced`: a rejection on stop must not count as unhandled.
    this.synced.catch(() => {});
  }

  /** Registers handlers; returns a function that removes them. Add them before `start()` to see every object. */
  addHandlers(handlers: InformerHandlers<T>): () => void {
    this.#handlers.add(handlers);
    return () => this.#handlers.delete(handlers);
  }

  /** Starts listing and watching in the background. Idempotent. */
  start(): void {
    if (this.#stop) return;
    const stop = new AbortController();
    this.#stop = stop;
    this.#loop = this.#run(stop.signal).catch((err) => {
      // #run handles every failure itself; this is the last net under it.
      this.#log.error({ err, path: this.#opts.path }, 'informer loop crashed');
    });
  }

  /** Stops the watch and the loop; resolves once no callback can run any more. */
  async stop(): Promise<void> {
    const stop = this.#stop;
    if (!stop) return;
    stop.abort(new Error('informer stopped'));
    if (!this.#hasSynced) this.#rejectSynced(new Error(`informer for ${this.#opts.path} stopped before it synced`));
    await this.#loop;
  }

  hasSynced(): boolean {
    return this.#hasSynced;
  }

  get(key: string): T | undefined {
    return this.#cache.get(key);
  }

  list(): T[] {
    return [...this.#cache.values()];
  }

  keys(): string[] {
    return [...this.#cache.keys()];
  }

  /** The resourceVersion the next watch would start from. */
  get resourceVersion(): string {
    return this.#resourceVersion;
  }

  async #run(signal: AbortSignal): Promise<void> {
    const policy = this.#opts.backoff ?? DEFAULT_BACKOFF;
    let failures = 0;
    let needList = true;
    while (!signal.aborted) {
      if (needList) {
        try {
          await this.#listAll(signal);
          needList = false;
          failures = 0;
        } catch (err) {
          if (signal.aborted) break;
          this.stats.listErrors++;
          const delay = jitteredDelay(policy, failures++);
          this.#log.warn({ err, path: this.#opts.path, delayMs: delay }, 'informer list failed; retrying');
          await abortableSleep(delay, signal);
          continue;
        }
      }
      let outcome: WatchOutcome;
      const started = Date.now();
      try {
        outcome = await this.#watchOnce(signal);
      } catch (err) {
        if (signal.aborted) break;
        if (isGone(err)) {
          outcome = 'gone';
        } else {
          this.stats.restarts++;
          const delay = jitteredDelay(policy, failures++);
          this.#log.warn({ err, path: this.#opts.path, delayMs: delay }, 'informer watch failed; retrying');
          await abortableSleep(delay, signal);
          continue;
        }
      }
      if (outcome === 'stopped') break;
      if (outcome === 'gone') {
        this.stats.gone++;
        this.#log.info(
          { path: this.#opts.path, resourceVersion: this.#resourceVersion },
          'watch expired (410); relisting',
        );
        needList = true;
        continue;
      }
      if (outcome === 'silent') {
        this.stats.watchdogFires++;
        this.#log.warn({ path: this.#opts.path, silenceMs: this.#silenceMs() }, 'watch silent; restarting it');
        // A silent connection says nothing about the apiserver: re-watch at once, but a run of
        // silent watches backs off like failures do.
        if (failures > 0) await abortableSleep(jitteredDelay(policy, failures - 1), signal);
        failures++;
        continue;
      }
      // 'ended': the server closed the watch, normally at timeoutSeconds. One that ends at once
      // again and again (a proxy cutting it) must not spin, so short ones count as failures.
      this.stats.watchEnds++;
      if (Date.now() - started < 1000) await abortableSleep(jitteredDelay(policy, failures++), signal);
      else failures = 0;
    }
  }

  /** Lists every page, then reconciles the cache with the result in one step. */
  async #listAll(signal: AbortSignal): Promise<void> {
    const items: T[] = [];
    let cont: string | undefined;
    let rv = '';
    const limit = this.#opts.pageSize ?? 500;
    do {
      const page = await kubeRequest<ObjectList<T>>(this.#kc, {
        path: this.#opts.path,
        query: {
          labelSelector: this.#opts.labelSelector,
          fieldSelector: this.#opts.fieldSelector,
          limit: limit > 0 ? limit : undefined,
          continue: cont,
        },
        signal,
        timeoutMs: this.#opts.listTimeoutMs ?? 60_000,
      });
      items.push(...(page.items ?? []));
      cont = page.metadata?.continue || undefined;
      rv = page.metadata?.resourceVersion ?? '';
    } while (cont);
    if (signal.aborted) return;
    this.#replace(items);
    this.#resourceVersion = rv;
    if (this.stats.lists++ > 0) this.stats.relists++;
    if (!this.#hasSynced) {
      this.#hasSynced = true;
      this.#resolveSynced();
    }
  }

  #replace(items: T[]): void {
    const fresh = new Map<string, T>();
    for (const obj of items) fresh.set(this.#keyOf(obj), obj);
    for (const [key, old] of this.#cache) {
      if (!fresh.has(key)) {
        this.#cache.delete(key);
        this.#emit(key, old, undefined);
      }
    }
    for (const [key, obj] of fresh) {
      const old = this.#cache.get(key);
      this.#cache.set(key, obj);
      if (!old || old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) this.#emit(key, old, obj);
    }
  }

  /** One watch, from the current resourceVersion until the server ends it or something goes wrong. */
  async #watchOnce(outer: AbortSignal): Promise<WatchOutcome> {
    const ctl = new AbortController();
    const onOuter = () => ctl.abort(outer.reason);
    outer.addEventListener('abort', onOuter, { once: true });
    let outcome: WatchOutcome = 'ended';
    const silenceMs = this.#silenceMs();
    // Armed before connecting, so a connection that never answers is caught too; every line
    // (event or bookmark) pushes it back.
    const watchdog = setTimeout(() => {
      outcome = 'silent';
      ctl.abort(new Error(`watch silent for ${silenceMs} ms`));
    }, silenceMs);
    this.stats.watches++;
    try {
      await kubeStream(
        this.#kc,
        {
          path: this.#opts.path,
          query: {
            watch: 1,
            resourceVersion: this.#resourceVersion,
            allowWatchBookmarks: true,
            timeoutSeconds: this.#opts.watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300),
            labelSelector: this.#opts.labelSelector,
            fieldSelector: this.#opts.fieldSelector,
          },
          signal: ctl.signal,
        },
        (line) => {
          if (ctl.signal.aborted) return;
          watchdog.refresh();
          const event = JSON.parse(line) as WatchEvent<T>;
          if (event.type === 'ERROR') {
            const status = event.object;
            if (status.code === 410) {
              outcome = 'gone';
              ctl.abort(new Error('watch expired'));
              return;
            }
            throw new KubeApiError(status.message ?? 'watch error', status.code ?? 500, status.reason);
          }
          this.#apply(event);
        },
      );
    } catch (err) {
      if (outer.aborted) return 'stopped';
      if (outcome !== 'ended') return outcome;
      throw err;
    } finally {
      clearTimeout(watchdog);
      outer.removeEventListener('abort', onOuter);
    }
    return outer.aborted ? 'stopped' : outcome;
  }

  #apply(event: WatchEvent<T>): void {
    const obj = event.object;
    const rv = obj.metadata?.resourceVersion;
    if (event.type === 'BOOKMARK') {
      this.stats.bookmarks++;
      if (rv) this.#resourceVersion = rv;
      return;
    }
    this.stats.events++;
    const key = this.#keyOf(obj);
    const old = this.#cache.get(key);
    if (event.type === 'DELETED') {
      this.#cache.delete(key);
      // The event carries the final state, which handlers see rather than the cached one.
      if (old) this.#emit(key, obj, undefined);
    } else {
      this.#cache.set(key, obj);
      this.#emit(key, old, obj);
    }
    if (rv) this.#resourceVersion = rv;
  }

  #emit(key: string, old: T | undefined, obj: T | undefined): void {
    for (const h of this.#handlers) {
      try {
        if (obj && !old) h.onAdd?.(obj);
        else if (obj && old) h.onUpdate?.(old, obj);
        else if (old) h.onDelete?.(old);
        h.onChange?.(key, obj);
      } catch (err) {
        this.stats.handlerErrors++;
        this.#log.error({ err, key, path: this.#opts.path }, 'informer handler threw');
      }
    }
  }

  #silenceMs(): number {
    return this.#opts.silenceMs ?? 90_000;
  }
}

function isGone(err: unknown): boolean {
  return err instanceof KubeApiError && err.statusCode === 410;
}
