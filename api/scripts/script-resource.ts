import type { ScriptRow } from '../../store/scripts-repo.ts';
import type { ScriptMeta, ScriptResource, ScriptScene } from './schemas.ts';

/** The stored row as the script resource (docs/api.md, Scripts): every field present, explicit nulls. */
export function scriptResource(row: ScriptRow): ScriptResource {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    scenes: row.scenes as ScriptScene[],
    meta: row.meta as ScriptMeta,
    createdAt: row.createdAt.toISOString(),
  };
}
