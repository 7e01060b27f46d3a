import type { Queryable } from './database.ts';
import { listOwned } from './owned-list.ts';
import type { Owner } from './types.ts';

export type AssetKind = 'image' | 'audio' | 'video' | 'subtitles';

export interface AssetRow {
  id: string;
  accountId: string;
  mode: Owner['mode'];
  kind: AssetKind;
  contentType: string;
  size: number;
  name: string | null;
  objectKey: string;
  createdAt: Date;
}

export async function insertAsset(sql: Queryable, a: AssetRow): Promise<AssetRow> {
  const [row] = await sql<AssetRow[]>`
    INSERT INTO assets (id, account_id, mode, kind, content_type, size, name, object_key, created_at)
    VALUES (${a.id}, ${a.accountId}, ${a.mode}, ${a.kind}, ${a.contentType}, ${a.size}, ${a.name}, ${a.objectKey},
      ${a.createdAt})
    RETURNING *`;
  return row as AssetRow;
}

export async function getAsset(sql: Queryable, owner: Owner, id: string): Promise<AssetRow | undefined> {
  const [row] = await sql<AssetRow[]>`
    SELECT * FROM assets WHERE id = ${id} AND account_id = ${owner.accountId} AND mode = ${owner.mode}`;
  return row;
}

/** By id alone, for the signed content URL (the signature is the authorisation). */
export async function getAssetById(sql: Queryable, id: string): Promise<AssetRow | undefined> {
  const [row] = await sql<AssetRow[]>`SELECT * FROM assets WHERE id = ${id}`;
  return row;
}

export function listAssets(
  sql: Queryable,
  owner: Owner,
  page: { limit: number; offset: number },
): Promise<{ rows: AssetRow[]; total: number }> {
  return listOwned<AssetRow>(sql, 'assets', owner, page);
}

export async function deleteAsset(sql: Queryable, owner: Owner, id: string): Promise<AssetRow | undefined> {
  const [row] = await sql<AssetRow[]>`
    DELETE FROM assets WHERE id = ${id} AND account_id = ${owner.accountId} AND mode = ${owner.mode} RETURNING *`;
  return row;
}
