import { Type } from '@sinclair/typebox';
import { OUTPUT_FORMATS } from '../../lib/output-formats.ts';
import { RENDER_STATUSES, type RenderStatus } from '../../store/types.ts';
import {
  DateTime,
  ErrorBodySchema,
  ListMeta,
  MovieDocument,
  Nullable,
  PageQuery,
  StringEnum,
  VariableValues,
} from '../http/schemas.ts';

export const RenderStatusSchema = StringEnum<RenderStatus>(RENDER_STATUSES);

export const RenderResourceSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    status: RenderStatusSchema,
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    draft: Type.Boolean(),
    watermark: Type.Boolean(),
    format: StringEnum(
      OUTPUT_FORMATS,
      "The movie's output.format (mp4 when it gives none): the output's file type, Content-Type and extension.",
    ),
    outputUrl: Nullable(Type.String({ format: 'uri' })),
    posterUrl: Nullable(
      Type.String({
        format: 'uri',
        description:
          "A video render's poster: a JPEG of the frame at output.posterTime (default the first), full frame size. Signed like outputUrl, same expiry; null until done, and for stills and audio formats.",
      }),
    ),
    thumbnailUrl: Nullable(
      Type.String({
        format: 'uri',
        description:
          "A finished video's or still's thumbnail: a WebP of the poster frame (a still: of the image), 320 px on the long side. Signed like outputUrl, same expiry; null until done, and for audio formats.",
      }),
    ),
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
  {
    additionalProperties: false,
    description:
      'A render as the API shows it: every field present, explicit nulls (docs/api.md, The render resource).',
  },
);

const WebhookUrl = Type.String({
  format: 'uri',
  pattern: '^[hH][tT][tT][pP][sS]?://',
  maxLength: 2048,
  description: 'Absolute http(s) URL notified on completion; paid plans only.',
});

/**
 * The documented example movie: one text scene with a variable. Request examples in the OpenAPI
 * document use it, so clients (and the fuzzer's examples phase) have a document the API accepts.
 */
export const EXAMPLE_MOVIE = {
  schema: 'v1',
  preset: '16:9',
  resolution: '480p',
  variables: { name: { type: 'string', default: 'world', description: 'Who is greeted.' } },
  scenes: [
    {
      id: 'intro',
      duration: 3,
      background: '#1a2238',
      elements: [{ id: 'title', type: 'text', text: 'Hello, {{name}}!', color: '#ffffff' }],
    },
  ],
};

export const CreateRenderBody = Type.Object(
  { movie: MovieDocument, variables: Type.Optional(VariableValues), webhook_url: Type.Optional(WebhookUrl) },
  { additionalProperties: false, examples: [{ movie: EXAMPLE_MOVIE, variables: { name: 'Framewright' } }] },
);

export const TemplateRenderBody = Type.Object(
  {
    variables: Type.Optional(VariableValues),
    webhook_url: Type.Optional(WebhookUrl),
    draft: Type.Optional(Type.Boolean({ description: 'Fast low-resolution watermarked draft at half cost.' })),
  },
  { additionalProperties: false, examples: [{ variables: { name: 'Framewright' }, draft: true }] },
);

/**
 * An RFC 3339 date-time a list can filter by: JavaScript and PostgreSQL read every such value the
 * same. No leap second (23:59:60 is no JavaScript Date) and, whatever the offset, a UTC instant in
 * the years 0001 to 9999 (PostgreSQL has no year 0). Outside that: VALIDATION_ERROR at the field.
 */
function QueryDateTime(description: string) {
  return Type.String({
    format: 'date-time',
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-5][0-9]',
    formatMinimum: '0001-01-02T00:00:00Z',
    formatMaximum: '9999-12-30T23:59:59Z',
    description: `${description} RFC 3339, years 0001 to 9999, seconds 00 to 59.`,
  });
}

export const ListRendersQuery = Type.Object(
  {
    status: Type.Optional(RenderStatusSchema),
    created_after: Type.Optional(QueryDateTime('Inclusive lower bound.')),
    created_before: Type.Optional(QueryDateTime('Exclusive upper bound.')),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const RenderListSchema = Type.Object(
  { items: Type.Array(RenderResourceSchema), ...ListMeta },
  { additionalProperties: false },
);
