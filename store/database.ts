import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import postgres from 'postgres';
import type { Logger } from '../lib/logger.ts';
import { migrate } from './migrate.ts';
import { startEmbeddedPostgres } from './pglite-server.ts';

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
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; unset opens the embedded PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  logger: Logger;
  /** Pool size of the client for PostgreSQL (default 10); the embedded database uses one connection. */
  max?: number;
  /** Apply migrations before returning (default true). */
  migrate?: boolean;
}

function connect(url: string, max: number): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
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
  const max = options.max ?? 10;
  let db: Database;
  if (options.databaseUrl) {
    const sql = connect(options.databaseUrl, max);
    db = { sql, kind: 'postgres', url: options.databaseUrl, close: () => sql.end({ timeout: 5 }) };
  } else {
    const dir = path.resolve(options.dataDir, 'pg');
    await mkdir(dir, { recursive: true });
    const embedded = await startEmbeddedPostgres({ dataDir: dir, maxConnections: 8 });
    // ONE client connection: pglite-socket runs one message at a time but, outside a transaction,
    // may interleave the Parse/Bind/Execute messages of two connections (unnamed portal lost).
    // PGlite executes serially anyway, so one connection costs no throughput.
    const sql = connect(embedded.url, 1);
    db = {
      sql,
      kind: 'pglite',
      url: embedded.url,
      close: async () => {
        await sql.end({ timeout: 5 });
        await embedded.stop();
      },
    };
    options.logger.info({ dataDir: dir }, 'embedded PostgreSQL (PGlite) started');
  }
  if (options.migrate !== false) {
    const applied = await migrate(db.sql);
    if (applied.length > 0) options.logger.info({ applied }, 'database migrations applied');
  }
  return db;
}
