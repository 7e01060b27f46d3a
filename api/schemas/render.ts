import { Type } from '@sinclair/typebox';
import { RENDER_STATUSES, type RenderStatus } from '../../store/types.ts';
import { DateTime, ErrorBodySchema, ListMeta, MovieDocument, Nullable, PageQuery, StringEnum } from './common.ts';

export const RenderStatusSchema = StringEnum<RenderStatus>(RENDER_STATUSES);

export const RenderResourceSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    status: RenderStatusSchema,
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    draft: Type.Boolean(),
    watermark: Type.Boolean(),
    outputUrl: Nullable(Type.String({ format: 'uri' })),
    expiresAt: Nullable(DateTime),
    error: Nullable(ErrorBodySchema),
    durationSec: Nullable(Type.Number({ minimum: 0 })),
    meteredMinutes: Nullable(Type.Number({ minimum: 0 })),
    fps: Type.Integer({ exclusiveMinimum: 0 }),
    templateId: Nullable(Type.String()),
    webhookUrl: Nullable(Type.String({ format: 'uri' })),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { additionalProperties: false, description: 'RenderResource (spec 2.3).' },
);

const WebhookUrl = Type.String({
  format: 'uri',
  pattern: '^[hH][tT][tT][pP][sS]?://',
  maxLength: 2048,
  description: 'Absolute http(s) URL notified on completion; paid plans only.',
});
const Variables = Type.Record(Type.String(), Type.Unknown(), { description: 'Values keyed by variable name.' });

export const CreateRenderBody = Type.Object(
  { movie: MovieDocument, variables: Type.Optional(Variables), webhook_url: Type.Optional(WebhookUrl) },
  { additionalProperties: false },
);

export const TemplateRenderBody = Type.Object(
  {
    variables: Type.Optional(Variables),
    webhook_url: Type.Optional(WebhookUrl),
    draft: Type.Optional(Type.Boolean({ description: 'Fast low-resolution watermarked draft at half cost.' })),
  },
  { additionalProperties: false },
);

export const ListRendersQuery = Type.Object(
  {
    status: Type.Optional(RenderStatusSchema),
    created_after: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive lower bound.' })),
    created_before: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive upper bound.' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const RenderListSchema = Type.Object(
  { items: Type.Array(RenderResourceSchema), ...ListMeta },
  { additionalProperties: false },
);
