import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { abortableSleep } from '../../lib/backoff.ts';
import type { KubeAccess } from '../../lib/kube/access.ts';
import { KubeApiError, kubeRequest } from '../../lib/kube/http.ts';
import type { Logger } from '../../lib/logger.ts';

export interface LeaderElectionOptions {
  /** Namespace and name of the coordination.k8s.io/v1 Lease. */
  namespace: string;
  name: string;
  /** This replica's identity in `holderIdentity`. Default `hostname_uuid`. */
  identity?: string;
  /** How long a lease holds after its last renewal, for everyone else. Whole seconds. Default 15 s. */
  leaseDurationMs?: number;
  /** A leader that has not renewed for this long steps down. Default 10 s, less than leaseDuration. */
  renewDeadlineMs?: number;
  /** Wait between attempts to acquire or renew. Default 2 s. */
  retryPeriodMs?: number;
  /** Now a leader. `signal` aborts when leadership is lost: stop acting then. */
  onStartedLeading?(signal: AbortSignal): void;
  /** No longer the leader (lost, stopped or released). The caller must stop acting at once. */
  onStoppedLeading?(): void;
  /** Someone else (or nobody: '') is seen holding the lease. */
  onNewLeader?(identity: string): void;
  logger?: Logger;
}

/** What the elector did so far; for tests and metrics. */
export interface LeaderElectionStats {
  /** Became leader (a transition to us). */
  acquired: number;
  /** Stopped being leader: renew deadline passed, stopped or released. */
  lost: number;
  renewals: number;
  /** Attempts that failed on an error (not on a lease held by someone else). */
  failures: number;
  /** Writes refused with 409 Conflict: another replica wrote the lease first. */
  conflicts: number;
  releases: number;
  /** Changes of the holder seen on the lease, ours included. */
  transitions: number;
}

interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

/**
 * Leader election on a Lease, as client-go's: acquire a lease that is free or expired
 * (renewTime + leaseDurationSeconds before now), write with the lease's resourceVersion so a 409
 * means another replica won; renew every retryPeriod; step down when no renewal has succeeded
 * for renewDeadline, whatever a request in flight is doing; `release()` hands the lease over at
 * once. Expiry compares the holder's renewTime with the local clock, so replicas' clocks must
 * agree to well within leaseDuration - renewDeadline (NTP does).
 */
export class LeaderElector {
  readonly identity: string;
  readonly stats: LeaderElectionStats = {
    acquired: 0,
    lost: 0,
    renewals: 0,
    failures: 0,
    conflicts: 0,
    releases: 0,
    transitions: 0,
  };

  readonly #kc: KubeAccess;
  readonly #opts: LeaderElectionOptions;
  readonly #leaseMs: number;
  readonly #deadlineMs: number;
  readonly #retryMs: number;
  readonly #log: Logger;
  readonly #path: string;
  #stop: AbortController | undefined;
  #loop: Promise<void> | undefined;
  /** Aborted when the current term ends; undefined while not leading. */
  #term: AbortController | undefined;
  #deadline: NodeJS.Timeout | undefined;
  #observedHolder: string | undefined;

  constructor(kc: KubeAccess, options: LeaderElectionOptions) {
    this.#kc = kc;
    this.#opts = options;
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    this.#leaseMs = options.leaseDurationMs ?? 15_000;
    this.#deadlineMs = options.renewDeadlineMs ?? 10_000;
    this.#retryMs = options.retryPeriodMs ?? 2_000;
    if (this.#leaseMs % 1000 !== 0 || this.#leaseMs < 1000) {
      throw new Error(`leaseDurationMs must be whole seconds (a Lease stores seconds). Passed: ${this.#leaseMs}`);
    }
    // The leader must give up before anyone else may take over, and get a few tries before that.
    if (!(this.#deadlineMs < this.#leaseMs)) {
      throw new Error(
        `renewDeadlineMs must be less than leaseDurationMs. Passed: ${this.#deadlineMs} >= ${this.#leaseMs}`,
      );
    }
    if (!(this.#retryMs * 1.2 < this.#deadlineMs)) {
      throw new Error(
        `retryPeriodMs * 1.2 must be less than renewDeadlineMs. Passed: ${this.#retryMs} and ${this.#deadlineMs}`,
      );
    }
    this.#log = options.logger ?? pino({ level: 'silent' });
    this.#path = `/apis/coordination.k8s.io/v1/namespaces/${options.namespace}/leases`;
  }

  /** Whether this replica leads now. */
  isLeader(): boolean {
    return this.#term !== undefined;
  }

  /** The holder last seen on the lease ('' for none), undefined before the first read. */
  get observedLeader(): string | undefined {
    return this.#observedHolder;
  }

  /** Starts competing for the lease in the background. Idempotent. */
  start(): void {
    if (this.#stop) return;
    const stop = new AbortController();
    this.#stop = stop;
    this.#loop = this.#run(stop.signal).catch((err) => {
      this.#log.error({ err, lease: this.#opts.name }, 'leader election loop crashed');
      this.#stepDown('crashed');
    });
  }

  /**
   * Stops competing and stops leading, leaving the lease as it is: other replicas take over once
   * it expires. What a crash looks like to them; `release()` is the orderly way out.
   */
  async stop(): Promise<void> {
    this.#stop?.abort(new Error('leader election stopped'));
    this.#stepDown('stopped');
    await this.#loop;
  }

  /**
   * Stops, and if this replica held the lease, empties its holder (leaseDurationSeconds 1) so
   * another replica acquires it on its next try instead of waiting for expiry. Never rejects.
   */
  async release(): Promise<void> {
    const wasLeader = this.isLeader();
    await this.stop();
    if (!wasLeader) return;
    try {
      const lease = await this.#get(undefined);
      if (lease?.spec?.holderIdentity !== this.identity) return;
      const now = microTime(Date.now());
      await this.#put(
        {
          ...lease,
          spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now },
        },
        undefined,
      );
      this.stats.releases++;
    } catch (err) {
      this.#log.warn({ err, lease: this.#opts.name }, 'could not release the lease; it will expire');
    }
  }

  async #run(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      if (!this.#term) {
        const started = Date.now();
        if ((await this.#attempt(stop)) === 'ours') this.#becomeLeader(started);
        else await abortableSleep(this.#retryMs * (1 + Math.random() * 0.2), stop);
        continue;
      }
      const term = this.#term;
      await abortableSleep(this.#retryMs, term.signal);
      if (stop.aborted || term.signal.aborted) continue;
      const started = Date.now();
      const result = await this.#attempt(term.signal);
      if (this.#term !== term) continue;
      if (result === 'ours') {
        this.stats.renewals++;
        this.#armDeadline(started);
      } else if (result === 'theirs') {
        // Someone else holds a valid lease: whatever happened, this replica is not the leader.
        this.#stepDown(`lease held by ${this.#observedHolder}`);
      }
      // A failed renewal changes nothing yet: the deadline timer ends the term if none succeeds.
    }
  }

  /**
   * One try to acquire or renew: 'ours' when the lease is ours afterwards, 'theirs' when another
   * replica holds it (or won the race to write it), 'failed' when the apiserver could not be asked.
   */
  async #attempt(signal: AbortSignal): Promise<'ours' | 'theirs' | 'failed'> {
    try {
      const lease = await this.#get(signal);
      const now = Date.now();
      if (!lease) {
        await this.#create(now, signal);
        this.#observe(this.identity);
        return 'ours';
      }
      const spec = lease.spec ?? {};
      const holder = spec.holderIdentity ?? '';
      this.#observe(holder);
      if (holder && holder !== this.identity && !expired(spec, now)) return 'theirs';
      const ours = holder === this.identity;
      await this.#put(
        {
          ...lease,
          spec: {
            holderIdentity: this.identity,
            leaseDurationSeconds: this.#leaseMs / 1000,
            acquireTime: ours && spec.acquireTime ? spec.acquireTime : microTime(now),
            renewTime: microTime(now),
            leaseTransitions: (spec.leaseTransitions ?? 0) + (ours ? 0 : 1),
          },
        },
        signal,
      );
      this.#observe(this.identity);
      return 'ours';
    } catch (err) {
      if (err instanceof KubeApiError && err.statusCode === 409) {
        this.stats.conflicts++;
        return 'theirs';
      }
      if (!signal.aborted) {
        this.stats.failures++;
        this.#log.warn({ err, lease: this.#opts.name }, 'lease acquire/renew failed');
      }
      return 'failed';
    }
  }

  #becomeLeader(renewedAt: number): void {
    const term = new AbortController();
    this.#term = term;
    this.stats.acquired++;
    this.#armDeadline(renewedAt);
    this.#log.info({ lease: this.#opts.name, identity: this.identity }, 'became leader');
    try {
      this.#opts.onStartedLeading?.(term.signal);
    } catch (err) {
      this.#log.error({ err }, 'onStartedLeading threw');
    }
  }

  /** Ends the term `renewDeadline` after the last renewal was sent, unless another succeeds. */
  #armDeadline(renewedAt: number): void {
    clearTimeout(this.#deadline);
    this.#deadline = setTimeout(
      () => this.#stepDown('renew deadline passed'),
      renewedAt + this.#deadlineMs - Date.now(),
    );
  }

  #stepDown(why: string): void {
    clearTimeout(this.#deadline);
    const term = this.#term;
    if (!term) return;
    this.#term = undefined;
    this.stats.lost++;
    term.abort(new Error(`leadership lost: ${why}`));
    this.#log.warn({ lease: this.#opts.name, identity: this.identity, why }, 'stopped leading');
    try {
      this.#opts.onStoppedLeading?.();
    } catch (err) {
      this.#log.error({ err }, 'onStoppedLeading threw');
    }
  }

  #observe(holder: string): void {
    if (holder === this.#observedHolder) return;
    this.#observedHolder = holder;
    this.stats.transitions++;
    try {
      this.#opts.onNewLeader?.(holder);
    } catch (err) {
      this.#log.error({ err }, 'onNewLeader threw');
    }
  }

  async #get(signal: AbortSignal | undefined): Promise<Lease | undefined> {
    try {
      return await kubeRequest<Lease>(this.#kc, {
        path: `${this.#path}/${this.#opts.name}`,
        signal,
        timeoutMs: this.#deadlineMs,
      });
    } catch (err) {
      if (err instanceof KubeApiError && err.statusCode === 404) return undefined;
      throw err;
    }
  }

  async #create(now: number, signal: AbortSignal): Promise<void> {
    await kubeRequest(this.#kc, {
      method: 'POST',
      path: this.#path,
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.#opts.name, namespace: this.#opts.namespace },
        spec: {
          holderIdentity: this.identity,
          leaseDurationSeconds: this.#leaseMs / 1000,
          acquireTime: microTime(now),
          renewTime: microTime(now),
          leaseTransitions: 0,
        },
      } satisfies Lease,
      signal,
      timeoutMs: this.#deadlineMs,
    });
  }

  /** Replaces the lease; its metadata.resourceVersion makes the write conditional (409 if stale). */
  async #put(lease: Lease, signal: AbortSignal | undefined): Promise<void> {
    await kubeRequest(this.#kc, {
      method: 'PUT',
      path: `${this.#path}/${this.#opts.name}`,
      body: lease,
      signal,
      timeoutMs: this.#deadlineMs,
    });
  }
}

function expired(spec: NonNullable<Lease['spec']>, now: number): boolean {
  if (!spec.renewTime) return true;
  return Date.parse(spec.renewTime) + (spec.leaseDurationSeconds ?? 0) * 1000 < now;
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
