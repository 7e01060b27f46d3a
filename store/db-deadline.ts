import { AsyncLocalStorage } from 'node:async_hooks';
import type postgres from 'postgres';
import type { Logger } from '../lib/logger.ts';
import { isDatabaseUnavailable } from './db-unavailable.ts';

/**
 * The most a request waits for one database step, a query or a whole transaction, before it
 * gives up and answers 503 SERVICE_UNAVAILABLE with Retry-After (docs/api.md): whatever the
 * database does, refusing connections or never answering. Steps of a healthy database take
 * milliseconds; two seconds leave room for a lock wait or a slow plan without letting an outage
 * hold requests (and their clients' connections) for as long as it lasts.
 */
export const DATABASE_DEADLINE_MS = 2_000;

/** How often a database known to be down is tried again (one `SELECT 1` at a time). */
const PROBE_INTERVAL_MS = 250;

/**
 * A request being answered. While `open`, every query and transaction made in its async context
 * (see requestScope) has the deadline; work it leaves running after its answer does not.
 */
export interface RequestScope {
  open: boolean;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (the handling of one request) under `scope`: its database steps get the deadline. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** Whether the code running now is in `scope` already. */
export function inRequestScope(scope: RequestScope): boolean {
  return scopes.getStore() === scope;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function inRequest(): boolean {
  return scopes.getStore()?.open === true;
}

/** Why a request-path database step failed without an answer from the database. */
export class DatabaseDeadlineError extends Error {
  /** Recognised by isDatabaseUnavailable (db-unavailable.ts): a 503, and a transient fault. */
  readonly code: 'DATABASE_TIMEOUT' | 'DATABASE_DOWN';
  constructor(code: 'DATABASE_TIMEOUT' | 'DATABASE_DOWN', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseDeadlineError';
    this.code = code;
  }
}

/** The parts of a postgres.js Query this module uses (it is a Promise subclass, run on then()). */
interface PendingQuery extends Promise<unknown> {
  /** Null until the query is handed to a connection (written to its socket). */
  state: unknown;
  strings: string[];
  args: unknown[];
  /** True once awaited (a query used as a fragment of another never is). */
  executed: boolean;
  /** Settle the query's promise; postgres.js calls them, and so does the sweeper. */
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A request's query being watched: it must settle within deadlineMs of `start`. */
interface Watched {
  query: PendingQuery;
  start: number;
}

/** How often the queries of requests are checked against the deadline (its precision). */
const SWEEP_MS = 100;

function isQuery(value: unknown): value is PendingQuery {
  return value instanceof Promise && 'strings' in value && 'state' in value && 'args' in value;
}

/**
 * A query that was never written to a connection (still queued in the pool, or waiting for a
 * connection to open) is made a no-op when its request gives up on it: postgres.js would
 * otherwise run it whenever a connection opens, a write applied long after its request was
 * answered 503. Cancelling it instead (Query#cancel) can leave a connection that opens for it
 * with nothing to do and out of the pool's rotation for good.
 */
const NOOP = Object.assign(['SELECT NULL WHERE false'], { raw: ['SELECT NULL WHERE false'] });
function defuse(query: PendingQuery): void {
  if (query.state !== null) return;
  query.strings = NOOP;
  query.args = [];
}

type Settle = { resolve: (v: unknown) => void; reject: (e: unknown) => void };

/**
 * The request path's view of the database: a deadline on every step, and a circuit that, once a
 * step found the database unreachable (refused, or no answer within the deadline), answers the
 * next steps at once with DATABASE_DOWN until a probe (`SELECT 1`, one at a time, every
 * PROBE_INTERVAL_MS) gets an answer. Background work (the executor, the sweepers, the CLI) runs
 * outside any request scope and sees the plain client: it retries with its own backoff.
 */
export class DatabaseGuard {
  private downSince: number | null = null;
  private probing = false;
  private closed = false;
  /** Requests' queries not settled yet, oldest first. */
  private readonly watched = new Set<Watched>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly raw: postgres.Sql,
    private readonly logger: Logger,
    readonly deadlineMs = DATABASE_DEADLINE_MS,
  ) {}

  /** Whether the database is known to be unreachable (the circuit is open). */
  get down(): boolean {
    return this.downSince !== null;
  }

  /** The client every caller uses: the plain one outside requests, with the deadline inside them. */
  wrap(sql: postgres.Sql): postgres.Sql {
    const begin = (...args: unknown[]) => (inRequest() ? this.begin(sql, args) : Reflect.apply(sql.begin, sql, args));
    const unsafe = (...args: unknown[]) => this.bound(Reflect.apply(sql.unsafe, sql, args));
    return new Proxy(sql, {
      apply: (target, thisArg, args) => this.bound(Reflect.apply(target, thisArg, args)),
      get: (target, prop, receiver) => {
        if (prop === 'begin') return begin;
        if (prop === 'unsafe') return unsafe;
        return Reflect.get(target, prop, receiver);
      },
    });
  }

  /** Stops probing (the database is being closed). */
  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** The database did not answer, or refused: answer the next requests at once until it does. */
  private trip(err: unknown): void {
    if (this.closed) return;
    if (this.downSince === null) {
      this.downSince = Date.now();
      this.logger.warn({ err }, 'the database cannot be reached: requests answer 503 until it answers again');
    }
    if (!this.probing) {
      this.probing = true;
      // Outside the request that tripped it: the probe is nobody's request and has no deadline.
      scopes.exit(() => void this.probe());
    }
  }

  /**
   * Tries the database until it answers: one `SELECT 1`, then another once it has failed, or
   * has had no answer for deadlineMs (it may be stuck on a black-holed connection; its answer
   * still counts when it comes). Any probe's answer closes the circuit.
   */
  private async probe(): Promise<void> {
    const answered = () => {
      if (this.downSince === null) return;
      this.logger.info({ downMs: Date.now() - this.downSince }, 'the database answers again');
      this.downSince = null;
    };
    while (!this.closed && this.downSince !== null) {
      const attempt = this.raw`SELECT 1`.then(answered, () => {});
      await Promise.race([attempt, sleep(this.deadlineMs)]);
      if (this.downSince !== null) await sleep(PROBE_INTERVAL_MS);
    }
    this.probing = false;
  }

  private downError(): DatabaseDeadlineError {
    return new DatabaseDeadlineError(
      'DATABASE_DOWN',
      'The database cannot be reached (it did not answer a moment ago).',
    );
  }

  private timeoutError(what: string): DatabaseDeadlineError {
    return new DatabaseDeadlineError(
      'DATABASE_TIMEOUT',
      `The database did not answer ${what} within ${this.deadlineMs} ms.`,
    );
  }

  /**
   * Within a request, `value` (whatever the client's call returned) if it is a query gets the
   * deadline: awaiting it waits at most deadlineMs (plus SWEEP_MS) from when it was made. This is
   * every request's hot path, so it costs no timer, promise or closure chain per query: the
   * query's own settle functions are wrapped (they are its own properties already, so its shape
   * does not change) and one sweeper, running while any is watched, fails the late ones.
   */
  private bound<T>(value: T): T {
    if (!isQuery(value) || !inRequest()) return value;
    const query = value;
    if (this.down) {
      // Known down: awaiting it fails at once and it never runs (rare: its cost does not matter).
      const failed = () => Promise.reject(this.downError());
      Object.assign(query, {
        // biome-ignore lint/suspicious/noThenProperty: the query stays a thenable, one that fails.
        then: (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
          failed().then(onFulfilled, onRejected),
        catch: (onRejected?: (e: unknown) => unknown) => failed().catch(onRejected),
        finally: (onFinally?: () => void) => failed().finally(onFinally),
      });
      return value;
    }
    const entry: Watched = { query, start: performance.now() };
    this.watched.add(entry);
    const { resolve, reject } = query;
    query.resolve = (v) => {
      this.watched.delete(entry);
      resolve(v);
    };
    query.reject = (e) => {
      // An answer that comes after the sweeper gave up on it is nobody's news any more.
      if (this.watched.delete(entry) && isDatabaseUnavailable(e)) this.trip(e);
      reject(e);
    };
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
    return value;
  }

  /**
   * Fails the requests' queries that are past the deadline: a query never handed to a
   * connection is made a no-op first (defuse), one on a connection is left to finish unheard.
   * A query never awaited by then is a fragment of another (or unused): it is let go.
   */
  private sweep(): void {
    const now = performance.now();
    for (const entry of this.watched) {
      if (now - entry.start < this.deadlineMs) break; // oldest first: the rest are younger
      this.watched.delete(entry);
      if (!entry.query.executed) continue;
      defuse(entry.query);
      const err = this.timeoutError('a query');
      this.trip(err);
      entry.query.reject(err);
    }
    if (this.watched.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /**
   * Runs `start` (which settles through the given callbacks) unless the database is known down,
   * and gives up after deadlineMs: then `onAbandon` runs, the circuit opens, and the answer is a
   * DATABASE_TIMEOUT. A failure that says the database is unreachable opens the circuit too.
   */
  private race(what: string, start: (settle: Settle) => void, onAbandon: () => void): Promise<unknown> {
    if (this.down) return Promise.reject(this.downError());
    return new Promise((resolve, reject) => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        onAbandon();
        const err = this.timeoutError(what);
        this.trip(err);
        reject(err);
      }, this.deadlineMs);
      start({
        resolve: (v) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          if (isDatabaseUnavailable(e)) this.trip(e);
          reject(e);
        },
      });
    });
  }

  /**
   * A transaction within a request: all of it, BEGIN to COMMIT, within deadlineMs. Past it the
   * request is answered and the transaction is abandoned: it can no longer commit. Its callback
   * may still be waiting on a query that has no answer; whenever it goes on, its next query
   * fails, and if it returns, it throws instead, so postgres.js rolls back (a connection that
   * died rolls back on the server anyway). A BEGIN that starts only after the deadline rolls
   * back at once. The one case left open is a deadline that passes while the COMMIT itself is
   * on its way: the transaction then commits whole or not at all, and the 503 cannot say which
   * (as with any connection lost at that moment); a POST retried with the same Idempotency-Key
   * is not made twice.
   */
  private begin(sql: postgres.Sql, args: unknown[]): Promise<unknown> {
    const fn = args.pop() as (tx: postgres.TransactionSql) => unknown;
    let abandoned: Error | undefined;
    const inner = async (tx: postgres.TransactionSql) => {
      if (abandoned) throw abandoned;
      const r = fn(this.wrapTransaction(tx, () => abandoned));
      const result = await (Array.isArray(r) ? Promise.all(r) : r);
      if (abandoned) throw abandoned;
      return result;
    };
    return this.race(
      'a transaction',
      (settle) =>
        (Reflect.apply(sql.begin, sql, [...args, inner]) as Promise<unknown>).then(settle.resolve, settle.reject),
      () => {
        abandoned = this.timeoutError('a transaction');
      },
    );
  }

  /** A transaction's handle whose queries fail at once (without running) once it is abandoned. */
  private wrapTransaction(tx: postgres.TransactionSql, abandoned: () => Error | undefined): postgres.TransactionSql {
    const refuse = <T>(value: T): T => {
      const err = abandoned();
      if (!err || !isQuery(value)) return value;
      const failed = Promise.reject(err);
      failed.catch(() => {});
      Object.assign(value, {
        // biome-ignore lint/suspicious/noThenProperty: the query stays a thenable that fails.
        then: (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
          failed.then(onFulfilled, onRejected),
        catch: (onRejected?: (e: unknown) => unknown) => failed.catch(onRejected),
        finally: (onFinally?: () => void) => failed.finally(onFinally),
      });
      return value;
    };
    const unsafe = (...args: unknown[]) => refuse(Reflect.apply(tx.unsafe, tx, args));
    const savepoint = (...args: unknown[]) => {
      const fn = args.pop() as (sp: postgres.TransactionSql) => unknown;
      return Reflect.apply(tx.savepoint, tx, [
        ...args,
        (sp: postgres.TransactionSql) => fn(this.wrapTransaction(sp, abandoned)),
      ]);
    };
    return new Proxy(tx, {
      apply: (target, thisArg, args) => refuse(Reflect.apply(target, thisArg, args)),
      get: (target, prop, receiver) => {
        if (prop === 'unsafe') return unsafe;
        if (prop === 'savepoint') return savepoint;
        return Reflect.get(target, prop, receiver);
      },
    });
  }
}
