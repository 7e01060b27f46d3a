import type { Static } from '@sinclair/typebox';
import type { RenderRow } from '../../store/types.ts';
import type { RenderResourceSchema } from '../schemas/render.ts';

export type RenderResource = Static<typeof RenderResourceSchema>;

/** The row as the API shows it (spec 2.3): every field present, explicit nulls. */
export function renderResource(row: RenderRow): RenderResource {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    draft: row.draft,
    watermark: row.watermark,
    outputUrl: row.outputUrl,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    error: (row.error ?? null) as RenderResource['error'],
    durationSec: row.durationSec,
    meteredMinutes: row.meteredMinutes,
    fps: row.fps,
    templateId: row.templateId,
    webhookUrl: row.webhookUrl,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
