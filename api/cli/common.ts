import { parseArgs } from 'node:util';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { AppError, ERROR_CATALOG } from '../../lib/errors.ts';
import { createLogger } from '../../lib/logger.ts';
import { DataDirInUseError } from '../../store/data-dir-lock.ts';
import { type Database, openDatabase } from '../../store/database.ts';
import { SharedServerUnreachableError } from '../../store/pglite-server.ts';
import { PLANS, type Plan } from '../../store/types.ts';

export type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

export class UsageError extends Error {}

export function parse(argv: string[], options: Options): { values: Record<string, string | boolean | undefined> } {
  try {
    return parseArgs({ args: argv, options: { ...options, json: { type: 'boolean' } }, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function need(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required.`);
  return v;
}

export function planOf(value: string): Plan {
  if (!(PLANS as readonly string[]).includes(value)) {
    throw new UsageError(`--plan must be one of ${PLANS.join(', ')}. Passed: ${value}`);
  }
  return value as Plan;
}

export function intOf(name: string, value: string, min: number): number {
  if (!/^-?\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}. Passed: ${value}`);
  }
  return Number(value);
}

/**
 * The database the server would use (DATABASE_URL, else the embedded one under DATA_DIR). While
 * `serve` holds the embedded one, the CLI works on it through the server (`attach`).
 */
export async function openFromEnv(): Promise<Database> {
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

/** Runs a subcommand with the database open; usage errors exit 2, catalogued errors their code. */
export async function runCommand(usage: string, fn: (db: () => Promise<Database>) => Promise<number>): Promise<number> {
  let db: Database | undefined;
  try {
    return await fn(async () => {
      db ??= await openFromEnv();
      return db;
    });
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${usage}`);
      return 2;
    }
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
