import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type postgres from 'postgres';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK_KEY = 7_160_212_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/** Migration files `NNNN_name.sql`, in version order. */
export async function loadMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: file.slice(0, 4),
      name: file.slice(5, -4),
      sql: await readFile(path.join(dir, file), 'utf8'),
    })),
  );
}

/**
 * The versions of `migrations` (default: this build's) that the database has not recorded: none
 * once this process migrated it, some when it was restored from an older backup or another
 * version's process rolled it back. A database without the table lacks them all.
 */
export async function pendingMigrations(sql: postgres.Sql, migrations?: Migration[]): Promise<string[]> {
  const versions = (migrations ?? (await loadMigrations())).map((m) => m.version);
  const [table] = await sql<{ exists: boolean }[]>`SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`;
  if (!table?.exists) return versions;
  const rows = await sql<{ version: string }[]>`
    SELECT version FROM schema_migrations WHERE version = ANY(${versions})`;
  const done = new Set(rows.map((r) => r.version));
  return versions.filter((v) => !done.has(v));
}

/**
 * Applies the migrations not yet recorded, all in one transaction under an advisory lock: a second
 * process waits for the first and then finds nothing left to do, and a failure leaves no half.
 * Returns the versions applied by this call.
 */
export async function migrate(sql: postgres.Sql, migrations?: Migration[]): Promise<string[]> {
  const list = migrations ?? (await loadMigrations());
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
    const rows = await tx<{ version: string }[]>`SELECT version FROM schema_migrations`;
    const done = new Set(rows.map((r) => r.version));
    const applied: string[] = [];
    for (const m of list) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql).simple();
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
      applied.push(m.version);
    }
    return applied;
  });
}
