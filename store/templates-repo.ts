import type { Queryable } from './database.ts';
import { listOwned } from './owned-list.ts';
import type { Owner, TemplateRow } from './types.ts';

export async function insertTemplate(
  sql: Queryable,
  t: Owner & { id: string; name: string; body: unknown; variables: Record<string, unknown>; now: Date },
): Promise<TemplateRow> {
  const [row] = await sql<TemplateRow[]>`
    INSERT INTO templates (id, account_id, mode, name, body, variables, created_at, updated_at)
    VALUES (${t.id}, ${t.accountId}, ${t.mode}, ${t.name}, ${sql.json(t.body as never)},
      ${sql.json(t.variables as never)}, ${t.now}, ${t.now})
    RETURNING *`;
  return row as TemplateRow;
}

export async function getTemplate(sql: Queryable, owner: Owner, id: string): Promise<TemplateRow | undefined> {
  const [row] = await sql<TemplateRow[]>`
    SELECT * FROM templates WHERE id = ${id} AND account_id = ${owner.accountId} AND mode = ${owner.mode}`;
  return row;
}

export function listTemplates(
  sql: Queryable,
  owner: Owner,
  page: { limit: number; offset: number },
): Promise<{ rows: TemplateRow[]; total: number }> {
  return listOwned<TemplateRow>(sql, 'templates', owner, page);
}

/** Replaces the name and/or the body (with its manifest); undefined when not the owner's. */
export async function updateTemplate(
  sql: Queryable,
  owner: Owner,
  id: string,
  change: { name?: string | undefined; body?: { body: unknown; variables: Record<string, unknown> }; now: Date },
): Promise<TemplateRow | undefined> {
  const [row] = await sql<TemplateRow[]>`
    UPDATE templates SET
      name = ${change.name !== undefined ? sql`${change.name}` : sql`name`},
      body = ${change.body ? sql`${sql.json(change.body.body as never)}` : sql`body`},
      variables = ${change.body ? sql`${sql.json(change.body.variables as never)}` : sql`variables`},
      updated_at = ${change.now}
    WHERE id = ${id} AND account_id = ${owner.accountId} AND mode = ${owner.mode}
    RETURNING *`;
  return row;
}

export async function deleteTemplate(sql: Queryable, owner: Owner, id: string): Promise<boolean> {
  const rows = await sql`
    DELETE FROM templates WHERE id = ${id} AND account_id = ${owner.accountId} AND mode = ${owner.mode}
    RETURNING id`;
  return rows.length > 0;
}
