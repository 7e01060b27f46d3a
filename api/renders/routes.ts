import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../lib/errors.ts';
import { getRender, listRenders } from '../../store/renders-repo.ts';
import type { RenderStatus } from '../../store/types.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { errorResponses, IdempotencyHeader, IdParams } from '../http/schemas.ts';
import { cancelRender } from './cancel-render.ts';
import { createRender } from './create-render.ts';
import { RenderCache } from './render-cache.ts';
import { type RenderResource, renderResource } from './render-resource.ts';
import { CreateRenderBody, ListRendersQuery, RenderListSchema, RenderResourceSchema } from './schemas.ts';

const MOVIE_CODES = [
  'SCHEMA_INVALID',
  'UNSUPPORTED_SCHEMA_VERSION',
  'ELEMENT_ID_DUPLICATE',
  'SCENE_ID_DUPLICATE',
  'SCENE_EMPTY',
  'VARIABLE_MISSING',
  'VARIABLE_TYPE_MISMATCH',
  'VARIABLE_UNDECLARED',
] as const;
export const CREATE_RENDER_CODES = [
  ...MOVIE_CODES,
  'INSUFFICIENT_CREDITS',
  'CONCURRENCY_LIMIT',
  'IDEMPOTENCY_KEY_REUSED',
  'WEBHOOKS_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
] as const;

const renders: FastifyPluginAsyncTypebox = async (app) => {
  const cache = new RenderCache(app.config.renderCacheTtlMs);
  if (cache.enabled) {
    const stop = await app.db.renderChanges.subscribe((id) => cache.evict(id));
    app.addHook('onClose', stop);
  }

  app.post(
    '/renders',
    {
      config: { movieDocument: 'movie' },
      schema: {
        operationId: 'createRender',
        tags: ['renders'],
        summary: 'Create a render',
        description:
          'Validates the movie document (finding paths are relative to `movie`), resolves variables, gates credits and concurrency, and queues the render.',
        headers: IdempotencyHeader,
        body: CreateRenderBody,
        response: {
          201: RenderResourceSchema,
          200: { ...RenderResourceSchema, description: 'Idempotent replay of the original render.' },
          ...errorResponses(...CREATE_RENDER_CODES),
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { render, replayed } = await createRender(app, request, auth, {
        document: request.body.movie,
        variables: request.body.variables,
        webhookUrl: request.body.webhook_url,
        templateId: null,
      });
      return reply.code(replayed ? 200 : 201).send(renderResource(render, app.links));
    },
  );

  app.get(
    '/renders',
    {
      schema: {
        operationId: 'listRenders',
        tags: ['renders'],
        summary: "List the caller's renders, newest first",
        querystring: ListRendersQuery,
        response: { 200: RenderListSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const q = request.query;
      const page = q.page ?? 1;
      const pageSize = q.page_size ?? 20;
      const { rows, total } = await listRenders(
        app.db.sql,
        auth,
        {
          status: q.status as RenderStatus | undefined,
          createdAfter: q.created_after ? new Date(q.created_after) : undefined,
          createdBefore: q.created_before ? new Date(q.created_before) : undefined,
        },
        { limit: pageSize, offset: (page - 1) * pageSize },
      );
      return {
        items: rows.map((row) => renderResource(row, app.links)),
        page,
        pageSize,
        total,
        hasMore: page * pageSize < total,
      };
    },
  );

  app.get(
    '/renders/:id',
    {
      schema: {
        operationId: 'getRender',
        tags: ['renders'],
        summary: 'Fetch a render',
        params: IdParams,
        response: { 200: RenderResourceSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const id = request.params.id;
      const cached = cache.get(id, auth, app.now().getTime());
      // A JSON string with a JSON content type goes out as is (no second serialisation).
      if (cached) return reply.type('application/json; charset=utf-8').send(cached as unknown as RenderResource);
      const generation = cache.generation;
      const row = await getRender(app.db.sql, auth, id);
      if (!row) throw new AppError('NOT_FOUND', `No render ${id}.`, { path: 'id' });
      const resource = renderResource(row, app.links);
      cache.set(resource, auth, generation, app.now().getTime());
      return resource;
    },
  );

  app.post(
    '/renders/:id/cancel',
    {
      schema: {
        operationId: 'cancelRender',
        tags: ['renders'],
        summary: 'Cancel a render',
        description:
          'A queued, preparing or rendering render ends `failed` with `error.code` RENDER_CANCELLED: nothing is charged, its reserved credits are released, `render.failed` goes to its webhook, and its worker (or its Render and Jobs in a cluster) is stopped. Answers the render as it now is. Cancelling a cancelled render answers it unchanged; any other finished render is RENDER_NOT_CANCELLABLE.',
        params: IdParams,
        response: { 200: RenderResourceSchema, ...errorResponses('NOT_FOUND', 'RENDER_NOT_CANCELLABLE') },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      return renderResource(await cancelRender(app, auth, request.params.id), app.links);
    },
  );
};

export default renders;
