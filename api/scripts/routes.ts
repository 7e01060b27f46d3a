import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../lib/errors.ts';
import { getScript } from '../../store/scripts-repo.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { emptyBodyAsObject, errorResponses, IdempotencyHeader, IdParams, MovieDocument } from '../http/schemas.ts';
import { createScript } from './create-script.ts';
import { ScriptRequestSchema, ScriptResourceSchema } from './schemas.ts';
import { scriptResource } from './script-resource.ts';
import { type MovieOptions, MovieOptionsSchema, scriptToMovie } from './script-to-movie.ts';

function notFound(id: string): AppError {
  return new AppError('NOT_FOUND', `No script ${id}.`, { path: 'id' });
}

/** POST /v1/scripts, GET /v1/scripts/{id}, POST /v1/scripts/{id}/movie (docs/api.md, Scripts). */
const scripts: FastifyPluginAsyncTypebox = async (app) => {
  const config = app.config.scripts;
  // Said once at start-up, so an operator sees why POST /v1/scripts would answer LLM_FAILED.
  if (config.model) {
    app.log.info(
      { model: config.model.model, endpoint: config.model.baseUrl ?? 'OpenAI', budgetMs: config.budgetMs },
      'script generation configured',
    );
  } else {
    app.log.warn('script generation not configured: set OPENAI_API_KEY, or OPENAI_BASE_URL and SCRIPT_MODEL');
  }

  app.post(
    '/scripts',
    {
      schema: {
        operationId: 'createScript',
        tags: ['scripts'],
        summary: 'Generate a video script',
        description:
          'Generates a script synchronously (typically tens of seconds). Each draft is checked against every set constraint (scene count, words per scene, image prompts, title, description, language, no long verbatim runs of sourceMaterial) and re-prompted with its violations, at most 3 drafts; provider errors are retried inside a 90 s budget. Costs max(2, ceil(scenes / 4)) credits, charged only on success; the balance must cover the largest possible charge (sceneCount, else 14 scenes) before the model is called.',
        headers: IdempotencyHeader,
        body: ScriptRequestSchema,
        response: {
          201: ScriptResourceSchema,
          200: { ...ScriptResourceSchema, description: 'Idempotent replay of the original script.' },
          ...errorResponses('INSUFFICIENT_CREDITS', 'IDEMPOTENCY_KEY_REUSED', 'LLM_FAILED', 'PAYLOAD_TOO_LARGE'),
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { script, replayed } = await createScript(app, request, auth, config, request.log);
      return reply.code(replayed ? 200 : 201).send(scriptResource(script));
    },
  );

  app.get(
    '/scripts/:id',
    {
      schema: {
        operationId: 'getScript',
        tags: ['scripts'],
        summary: 'Fetch a generated script',
        params: IdParams,
        response: { 200: ScriptResourceSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await getScript(app.db.sql, auth, request.params.id);
      if (!row) throw notFound(request.params.id);
      return scriptResource(row);
    },
  );

  app.post(
    '/scripts/:id/movie',
    {
      schema: {
        operationId: 'scriptToMovie',
        tags: ['scripts'],
        summary: 'Build a movie document from a script',
        description:
          'Returns a ready v1 movie document: one scene per script scene lasting as long as its voiceover, a voice element with the narration, word-timed subtitles, and the title as text on the first scene. Edit it if you like and send it as `movie` to POST /v1/renders. Free.',
        params: IdParams,
        body: MovieOptionsSchema,
        response: { 200: MovieDocument, ...errorResponses('NOT_FOUND', 'PAYLOAD_TOO_LARGE') },
      },
      // An optional body (the document says so): a request without one means "all defaults".
      preValidation: emptyBodyAsObject,
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await getScript(app.db.sql, auth, request.params.id);
      if (!row) throw notFound(request.params.id);
      const resource = scriptResource(row);
      return scriptToMovie(
        { title: resource.title, scenes: resource.scenes, language: resource.meta.language },
        // StringEnum fields reach the type provider as unknown; ajv has checked them.
        (request.body ?? {}) as MovieOptions,
      );
    },
  );
};

export default scripts;
