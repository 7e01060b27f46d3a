import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../lib/errors.ts';
import { resolveMovie } from '../../movie/index.ts';
import { getTemplate } from '../../store/templates-repo.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { DateTime, errorResponses, MovieDocument, Nullable, VariableValues } from '../http/schemas.ts';
import { retryAfterSec } from '../rate-limit/limiter.ts';
import type { Preview } from './preview-store.ts';
import { issuePreviewToken, PREVIEW_TOKEN_TTL_SEC } from './preview-token.ts';

const CreatePreviewBody = Type.Object(
  {
    movie: Type.Optional(MovieDocument),
    template_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "A template's id: its body is the document." }),
    ),
    variables: Type.Optional(VariableValues),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of `movie` and `template_id`, with the variables to resolve it with.',
    examples: [{ template_id: 'tpl_01jq0000000000000000000000', variables: { name: 'Framewright' } }],
  },
);

const PreviewSchema = Type.Object(
  {
    id: Type.String({ description: 'The preview: its files are served under /v1/previews/{id}/files/.' }),
    width: Type.Integer({ minimum: 1 }),
    height: Type.Integer({ minimum: 1 }),
    fps: Type.Number({ exclusiveMinimum: 0 }),
    duration: Type.Number({ minimum: 0, description: 'Seconds, as the render will last.' }),
    total_frames: Type.Integer({ minimum: 1 }),
    cached: Type.Boolean({ description: 'The same document was prepared for this account a moment ago.' }),
    files_url: Type.String({ format: 'uri', description: 'Base URL of the files the plan names.' }),
    sound: Nullable(
      Type.String({ description: 'The name of the mixed sound (AAC in MP4), or null for a silent movie.' }),
    ),
    expires_at: DateTime,
    words: Type.Record(
      Type.String(),
      Type.Array(
        Type.Object(
          { text: Type.String(), start: Type.Number({ minimum: 0 }), end: Type.Number({ minimum: 0 }) },
          { additionalProperties: false },
        ),
      ),
      {
        description:
          'Word timings of each subtitles element, by its JSON path, in seconds on the movie timeline: the synthesised voices (or the transcript) as the captions show them.',
      },
    ),
    plan: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "The render plan the player draws (its layers' textures, motion, timings). Internal: read by the player of the same Framewright version, not a stable contract.",
      },
    ),
  },
  { additionalProperties: false },
);

const PreviewTokenSchema = Type.Object(
  {
    token: Type.String({ description: 'Send as Authorization: Bearer <token> to POST /v1/previews only.' }),
    expires_at: DateTime,
  },
  { additionalProperties: false },
);

const FileParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._#-]+$' }),
});

/**
 * Live preview for the browser player (player/): POST /v1/previews prepares a document as a
 * render would (the same prepare step, its speech and word timings included) and answers the plan
 * the player draws; its files (textures, clips, the mixed sound) are fetched from
 * /v1/previews/{id}/files/{name}. Previews are free: no credits, no render row. What bounds them
 * is the key's rate limit, PREVIEW_RATE_LIMIT fresh preparations per account a minute, and
 * the content cache (the same document is prepared once). POST /v1/preview-tokens gives a page a
 * short-lived token that may do nothing but preview, so no API key ever reaches a browser.
 */
const previews: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/preview-tokens',
    {
      schema: {
        operationId: 'createPreviewToken',
        tags: ['previews'],
        summary: 'A short-lived token for the browser player',
        description: `Made with an API key on your server and handed to a page: it may call POST /v1/previews for the key's account and nothing else, for ${PREVIEW_TOKEN_TTL_SEC / 60} minutes. A preview token cannot make another.`,
        response: { 201: PreviewTokenSchema, ...errorResponses('UNAUTHORIZED') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (auth.preview) throw new AppError('UNAUTHORIZED', 'A preview token cannot make preview tokens.');
      const made = issuePreviewToken(app.links, auth, app.now());
      return reply.code(201).send({ token: made.token, expires_at: made.expiresAt.toISOString() });
    },
  );

  app.post(
    '/previews',
    {
      config: { preview: true, movieDocument: 'movie' },
      schema: {
        operationId: 'createPreview',
        tags: ['previews'],
        summary: 'Prepare a document for the browser player',
        description:
          "Runs the render's prepare step (assets, speech with word timings, text, shapes, the sound mix) and answers the plan the player draws. Free: no credits are reserved or charged. Cached by content for the account; fresh preparations are limited per account per minute (RATE_LIMITED with Retry-After). Accepts an API key or a preview token.",
        body: CreatePreviewBody,
        response: {
          200: PreviewSchema,
          ...errorResponses(
            'VALIDATION_ERROR',
            'SCHEMA_INVALID',
            'VARIABLE_MISSING',
            'VARIABLE_TYPE_MISMATCH',
            'NOT_FOUND',
            'ASSET_UNREACHABLE',
            'ASSET_INVALID',
            'TTS_FAILED',
            'TRANSCRIPTION_FAILED',
            'RATE_LIMITED',
            'PREVIEW_FAILED',
            'INSUFFICIENT_STORAGE',
          ),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { movie, template_id: templateId, variables } = request.body;
      if ((movie === undefined) === (templateId === undefined)) {
        throw new AppError('VALIDATION_ERROR', 'Send exactly one of movie and template_id.', {
          path: movie === undefined ? 'movie' : 'template_id',
        });
      }
      let document: unknown = movie;
      if (templateId !== undefined) {
        const template = await getTemplate(app.db.sql, auth, templateId);
        if (!template) throw new AppError('NOT_FOUND', `No template ${templateId}.`, { path: 'template_id' });
        document = template.body;
      }
      const resolved = resolveMovie(document, variables ?? {});
      if (!resolved.ok) throw AppError.fromFindings(resolved.findings);
      const watermark = app.plans[auth.plan].watermark || auth.mode === 'test';
      const started = performance.now();
      let refused = false;
      const prepared = app.previews
        .prepare(auth.accountId, resolved.value, watermark, {
          admit: async () => {
            const now = app.now().getTime();
            const limit = app.config.previewsPerMinute;
            const decision = await app.limiter.hit(`previews:${auth.accountId}`, limit, 60_000, now);
            if (decision.allowed) return;
            refused = true;
            throw new AppError(
              'RATE_LIMITED',
              `More than ${limit} new previews in the last minute for this account; unchanged documents are answered from the cache.`,
              { headers: { 'retry-after': String(retryAfterSec(decision, now)) } },
            );
          },
        })
        .catch((err: unknown) => {
          app.metrics.previews.inc({ outcome: refused ? 'refused' : 'failed' });
          throw err;
        });
      const { preview, cached } = await prepared;
      app.metrics.previews.inc({ outcome: cached ? 'cached' : 'prepared' });
      if (!cached) app.metrics.previewSeconds.observe((performance.now() - started) / 1000);
      return previewResource(preview, cached, `${app.config.publicBaseUrl}/v1/previews/${preview.id}/files/`);
    },
  );

  app.get(
    '/previews/:id/files/:name',
    {
      config: { public: true },
      schema: {
        operationId: 'getPreviewFile',
        tags: ['previews'],
        summary: "A preview's file (a texture, a clip, its sound)",
        description:
          'Public like a signed link: the preview id is the capability (80 random bits, valid until the preview expires).',
        security: [],
        params: FileParams,
        response: {
          200: Type.Unsafe({ description: 'The file: raw RGBA texels, a clip, or AAC in MP4' }),
          ...errorResponses('NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const found = app.previews.file(request.params.id, request.params.name);
      if (!found) throw new AppError('NOT_FOUND', 'No such preview file (it may have expired: prepare it again).');
      return reply
        .header('content-type', found.type)
        .header('cache-control', 'private, max-age=600, immutable')
        .send(createReadStream(found.path));
    },
  );
};

function previewResource(p: Preview, cached: boolean, filesUrl: string) {
  return {
    id: p.id,
    width: p.plan.width,
    height: p.plan.height,
    fps: p.plan.fps,
    duration: p.durationSec,
    total_frames: p.plan.totalFrames,
    cached,
    files_url: filesUrl,
    sound: p.sound ?? null,
    expires_at: p.expiresAt.toISOString(),
    words: Object.fromEntries(
      Object.entries(p.words).map(([path, words]) => [
        path,
        words.map((w) => ({ text: w.text, start: w.startSec, end: w.endSec })),
      ]),
    ),
    plan: p.plan as unknown as Record<string, unknown>,
  };
}

export default previews;
