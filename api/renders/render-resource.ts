import type { Static } from '@sinclair/typebox';
import type { RenderRow } from '../../store/types.ts';
import type { SignedLinks } from '../outputs/output-links.ts';
import { renderImages } from '../outputs/render-images.ts';
import type { RenderResourceSchema } from './schemas.ts';

export type RenderResource = Static<typeof RenderResourceSchema>;

/** What renderResource needs of the signed links: the output, poster and thumbnail links of a finished render. */
export type OutputLinkSigner = Pick<SignedLinks, 'outputUrl' | 'imageUrl'>;

/**
 * The row as the API shows it (docs/api.md, The render resource): every field present, explicit nulls. `outputUrl` is
 * derived here, not stored: a signed link to the API's own download endpoint, valid until
 * `expiresAt`, once the render is done and its output stored.
 */
export function renderResource(row: RenderRow, links: OutputLinkSigner): RenderResource {
  const stored = row.status === 'done' && row.outputKey && row.expiresAt ? row.expiresAt : undefined;
  const images = stored ? renderImages(row.outputFormat) : { poster: false, thumbnail: false };
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    draft: row.draft,
    watermark: row.watermark,
    format: row.outputFormat,
    outputUrl: row.status === 'done' && row.outputKey && row.expiresAt ? links.outputUrl(row.id, row.expiresAt) : null,
    posterUrl: stored && images.poster ? links.imageUrl(row.id, 'poster', stored) : null,
    thumbnailUrl: stored && images.thumbnail ? links.imageUrl(row.id, 'thumbnail', stored) : null,
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
