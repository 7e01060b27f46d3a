import { EnvSchema, readEnv } from '../../lib/config.ts';
import { AppError, ERROR_CATALOG } from '../../lib/errors.ts';
import { createLogger } from '../../lib/logger.ts';
import { DataDirInUseError } from '../../store/data-dir-lock.ts';
import { type Database, openDatabase } from '../../store/database.ts';
import { SharedServerUnreachableError } from '../../store/pglite-server.ts';

/** Options of the subcommands that name an account (checked by bin/commands.ts). */
export interface AccountOptions {
  account: string;
  json?: boolean;
}

/**
 * The database the server would use (DATABASE_URL, else the embedded one under DATA_DIR). While
 * `serve` holds the embedded one, the CLI works on it through the server (`attach`).
 */
async function openFromEnv(): Promise<Database> {
  const { values } = readEnv(EnvSchema);
  const logger = createLogger({ level: 'warn', name: 'cli' });
  return openDatabase({
    databaseUrl: values.DATABASE_URL,
    dataDir: values.DATA_DIR ?? './data',
    logger,
    max: 2,
    attach: true,
    // stderr: stdout may be --json for a script.
    onWaitForHolder: (pid) =>
      process.stderr.write(`The embedded database is in use by process ${pid}; waiting for it to share it…\n`),
  });
}

/** Prints JSON (--json) or text; returns 0. */
export function emit(json: boolean | undefined, data: unknown, text: string): number {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
  return 0;
}

/**
 * Runs a subcommand (its options already checked by bin/commands.ts) with the database opened on
 * first use; a catalogued error exits with its code.
 */
export async function runCommand(fn: (db: () => Promise<Database>) => Promise<number>): Promise<number> {
  let db: Database | undefined;
  try {
    return await fn(async () => {
      db ??= await openFromEnv();
      return db;
    });
  } catch (err) {
    if (err instanceof AppError) {
      process.stderr.write(`${err.code}: ${err.message}\n`);
      return ERROR_CATALOG[err.code].exit;
    }
    // The embedded database is held by a process that does not share it, or does not answer:
    // the message says what to do; a stack trace would only bury it.
    if (err instanceof DataDirInUseError || err instanceof SharedServerUnreachableError) {
      process.stderr.write(`framewright: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await db?.close();
  }
}
