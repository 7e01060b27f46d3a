import type { OutputFormatName } from '../../lib/output-formats.ts';
import type { Queryable } from '../database.ts';

export interface OutputRow {
  id: string;
  /** The render's output format (decided at creation): the download's extension and Content-Type. */
  outputFormat: OutputFormatName;
  outputKey: string | null;
  expiresAt: Date | null;
  outputDeletedAt: Date | null;
}

/** The output of a render by id alone: the signed link, not an API key, authorises the download. */
export async function getOutput(sql: Queryable, renderId: string): Promise<OutputRow | undefined> {
  const [row] = await sql<OutputRow[]>`
    SELECT id, output_format, output_key, expires_at, output_deleted_at FROM renders WHERE id = ${renderId} AND status = 'done'`;
  return row;
}

/** Outputs past their retention that still have an object, oldest first. */
export async function expiredOutputs(sql: Queryable, now: Date, limit: number): Promise<OutputRow[]> {
  return sql<OutputRow[]>`
    SELECT id, output_format, output_key, expires_at, output_deleted_at FROM renders
    WHERE output_key IS NOT NULL AND output_deleted_at IS NULL AND expires_at < ${now}
    ORDER BY expires_at LIMIT ${limit}`;
}

export async function markOutputDeleted(sql: Queryable, renderId: string, now: Date): Promise<void> {
  await sql`UPDATE renders SET output_deleted_at = ${now} WHERE id = ${renderId}`;
}

/** Finished renders (done or failed before `before`) whose work objects were not looked for yet. */
export async function unsweptWork(sql: Queryable, before: Date, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM renders
    WHERE work_swept_at IS NULL AND status IN ('done', 'failed') AND updated_at < ${before}
    ORDER BY updated_at LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

export async function markWorkSwept(sql: Queryable, renderId: string, now: Date): Promise<void> {
  await sql`UPDATE renders SET work_swept_at = ${now} WHERE id = ${renderId}`;
}
