import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import postgres from 'postgres';
import { retryTransient } from '../lib/backoff.ts';
import type { Logger } from '../lib/logger.ts';
import { ChangeFeed } from './change-feed.ts';
import { DataDirInUseError } from './data-dir-lock.ts';
import { DatabaseGuard } from './db-deadline.ts';
import { isDatabaseUnavailable } from './db-unavailable.ts';
import { migrate } from './migrate.ts';
import {
  type EmbeddedPostgres,
  findSharedServer,
  type SharedServer,
  SharedServerUnreachableError,
  sharedServerFile,
  startEmbeddedPostgres,
} from './pglite-server.ts';

/** The `postgres` client type every repository takes; a transaction handle has the same shape. */
export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;
/** Either the pool or a transaction: what a repository function runs its SQL on. */
export type Queryable = postgres.Sql | postgres.TransactionSql;

/**
 * The Database port: one `postgres` client whatever is behind it, so one SQL code path serves a
 * real PostgreSQL (`DATABASE_URL`) and the embedded PGlite default.
 */
export interface Database {
  readonly sql: Sql;
  readonly kind: 'postgres' | 'pglite';
  /** The URL clients connect to (for the embedded one, its loopback socket). */
  readonly url: string;
  /** Ids of renders that changed (see change-feed.ts); writers publish after they commit. */
  readonly renderChanges: ChangeFeed;
  close(): Promise<void>;
}

/**
 * LISTEN on `channel` for as long as the returned stop function is not called. postgres.js listens
 * again after a reconnect: whatever was announced in between is lost, so `onMissed` runs then.
 */
export async function listenForChanges(
  sql: Sql,
  channel: string,
  onMessage: (payload: string) => void,
  onMissed: () => void,
): Promise<() => Promise<void>> {
  let first = true;
  const listening = await sql.listen(channel, onMessage, () => {
    if (!first) onMissed();
    first = false;
  });
  return () => listening.unlisten();
}

/** The channel the renders_changed trigger (migration 0202) notifies on. */
const RENDER_CHANGES_CHANNEL = 'framewright_renders';

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; unset opens the embedded PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  logger: Logger;
  /** Pool size of the client for PostgreSQL (DEFAULT_POOL_SIZE); the embedded database uses one connection. */
  max?: number;
  /** Apply migrations before returning (default true). */
  migrate?: boolean;
  /**
   * Embedded only: once open and migrated, let other processes of this user reach it through its
   * wire server (see pglite-server.ts share()). `serve` sets it, so the CLI works while it runs.
   */
  share?: boolean;
  /**
   * Embedded only: when another live process holds the directory, use its database through its
   * wire server once it shares it, instead of failing (waiting up to ATTACH_WAIT_MS for it to
   * share or let go). PGlite stays with that one process: one writer. The CLI sets it.
   */
  attach?: boolean;
  /** Called once when `attach` starts waiting for the process that holds the directory. */
  onWaitForHolder?: (pid: number) => void;
}

/**
 * Connections to PostgreSQL per process. postgres.js pipelines queries over busy connections, so
 * under load a few connections each carry several queries per socket write and per wake-up of
 * their server process; every extra connection is one more backend woken for a single query.
 * Measured with bench-api (POST /v1/renders, 50 clients, 2 cores): 2 connections 2,703 req/s,
 * 4 connections 2,893 req/s, 10 connections 1,912 req/s. Four leave room for a transaction or
 * a lock wait to hold one while the others go on. DATABASE_POOL_SIZE overrides it.
 */
export const DEFAULT_POOL_SIZE = 4;

/**
 * Seconds a connection may take to open (TCP, TLS, authentication) before the attempt fails and
 * the query waiting for it with it (postgres.js waits 30 s): a database that accepts connections
 * but never answers (a black-holed network) fails the executor's and sweepers' queries too, and
 * they retry with their own backoff. Requests do not wait for it: see db-deadline.ts.
 */
const CONNECT_TIMEOUT_SEC = 5;

/**
 * Seconds between a failed connection attempt and the next of the same connection: 0.05 s,
 * doubling, at most 0.5 s, jittered. postgres.js's own grows to 20 s (3^n / 100), so a pool
 * could go on waiting up to 20 s after the database was back.
 */
function reconnectBackoff(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 0.5) * (0.5 + Math.random() / 2);
}

function connect(url: string, max: number, logger: Logger, connectTimeoutSec = CONNECT_TIMEOUT_SEC): Sql {
  return postgres(url, {
    max,
    connect_timeout: connectTimeoutSec,
    backoff: reconnectBackoff,
    // What the server says besides answers (a migration's "already exists, skipping", a plan that
    // auto_explain logs): at debug level, not on stdout, where postgres.js writes it by default.
    onnotice: (notice) => logger.debug({ severity: notice.severity, notice: notice.message }, 'database notice'),
    // Bigints (credit balances) come back as JS numbers: balances stay far below 2^53.
    types: {
      bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) },
    },
    // Rows come back camelCase and `sql(object)` inserts camelCase keys as snake_case columns.
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel }, undefined: null },
    connection: { application_name: 'framewright' },
  });
}

/** Opens the database named by the options, migrated and ready. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const max = options.max ?? DEFAULT_POOL_SIZE;
  let db: Database;
  let share: (() => Promise<void>) | undefined;
  if (options.databaseUrl) {
    const raw = connect(options.databaseUrl, max, options.logger);
    const guard = new DatabaseGuard(raw, options.logger);
    const sql = guard.wrap(raw);
    // Other processes (replicas, the operator) change renders too: their changes arrive by LISTEN.
    // What a reconnect may have missed is announced as a change of everything.
    const renderChanges = new ChangeFeed((publish) =>
      listenForChanges(sql, RENDER_CHANGES_CHANNEL, publish, () => publish(null)),
    );
    db = {
      sql,
      kind: 'postgres',
      url: options.databaseUrl,
      renderChanges,
      close: () => {
        guard.close();
        return raw.end({ timeout: 5 });
      },
    };
  } else {
    const dir = path.resolve(options.dataDir, 'pg');
    // 0700: the raw database files (key hashes, webhook secrets) are this user's alone.
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const embedded = await startEmbeddedOrAttach(dir, options);
    if ('attached' in embedded) return embedded.attached;
    // ONE client connection: PGlite is a single session that every connection shares (see
    // pglite-wire.ts), so two clients' prepared statements and unnamed portals would collide.
    // PGlite executes serially anyway, so one connection costs no throughput.
    const raw = connect(embedded.url, 1, options.logger);
    // The same deadline as on PostgreSQL: one code path, though PGlite rarely goes away.
    const guard = new DatabaseGuard(raw, options.logger);
    db = {
      sql: guard.wrap(raw),
      kind: 'pglite',
      url: embedded.url,
      // The data directory is locked to this process: every change is made here and published.
      renderChanges: new ChangeFeed(),
      close: async () => {
        guard.close();
        await raw.end({ timeout: 5 });
        await embedded.stop();
      },
    };
    options.logger.info({ dataDir: dir }, 'embedded PostgreSQL (PGlite) started');
    if (options.share) share = () => embedded.share();
  }
  if (options.migrate !== false) {
    try {
      const applied = await migrate(db.sql);
      if (applied.length > 0) options.logger.info({ applied }, 'database migrations applied');
    } catch (err) {
      // A caller that retries (serve waiting for its database) must not leak a client per try.
      await db.close().catch(() => {});
      throw err;
    }
  }
  // Shared only once migrated: a process that attaches never migrates (see attachEmbedded).
  await share?.();
  return db;
}

/** How long `attach` waits for the holder to share (a `serve` starting: PGlite, migrations) or let go. */
const ATTACH_WAIT_MS = 60_000;

/** Starts PGlite under `dir` or, with `attach`, uses the one a live holder of `dir` shares. */
async function startEmbeddedOrAttach(
  dir: string,
  options: OpenDatabaseOptions,
): Promise<EmbeddedPostgres | { attached: Database }> {
  const deadline = Date.now() + ATTACH_WAIT_MS;
  for (let waiting = false; ; waiting = true) {
    try {
      // Also when a holder went away while we waited: then this process owns the directory.
      return await startEmbeddedPostgres({ dataDir: dir, maxConnections: 8 });
    } catch (err) {
      if (!options.attach || !(err instanceof DataDirInUseError)) throw err;
      const shared = await findSharedServer(dir, err.pid);
      if (shared) return { attached: await attachEmbedded(dir, shared, options.logger) };
      if (Date.now() >= deadline) throw err;
      if (!waiting) options.onWaitForHolder?.(err.pid);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * The embedded database of another process (`serve`), through its wire server. No migrations:
 * the owner shares its database only after migrating it. Renders are changed by the owner alone,
 * so this process has nothing to hear about them.
 */
async function attachEmbedded(dir: string, shared: SharedServer, logger: Logger): Promise<Database> {
  const at = `${shared.host}:${shared.port}`;
  const url = `postgres://postgres:${encodeURIComponent(shared.password)}@${at}/postgres`;
  // One connection, as in the owner: every connection shares PGlite's one session.
  const sql = connect(url, 1, logger, 10);
  try {
    await sql`SELECT 1`;
  } catch (err) {
    await sql.end({ timeout: 0 });
    const code = (err as { code?: unknown }).code;
    if (code === '28P01') {
      throw new SharedServerUnreachableError(
        `The server (pid ${shared.pid}) on ${at} refused the password in ${sharedServerFile(dir)}.`,
      );
    }
    throw new SharedServerUnreachableError(
      `The server (pid ${shared.pid}) that holds the embedded database in ${path.dirname(dir)} is not ` +
        `answering on ${at} (${code ?? (err as Error).message}). If pid ${shared.pid} is no framewright ` +
        `server (a lock left by a crash), remove ${dir}.lock and try again.`,
      { cause: err },
    );
  }
  return { sql, kind: 'pglite', url, renderChanges: new ChangeFeed(), close: () => sql.end({ timeout: 5 }) };
}

/**
 * openDatabase, waiting for a database that cannot be reached yet (a cluster starting, a
 * failover) rather than failing: each try that finds it unreachable is logged, then retried
 * with backoff. Any other error (a wrong URL, a failed migration) fails at once.
 */
export function openDatabaseWhenUp(options: OpenDatabaseOptions): Promise<Database> {
  return retryTransient(() => openDatabase(options), {
    isTransient: isDatabaseUnavailable,
    onRetry: (err, attempt, retryInMs) =>
      options.logger.warn({ err, attempt, retryInMs }, 'the database cannot be reached yet; waiting for it'),
  });
}
