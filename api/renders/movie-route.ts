import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../lib/errors.ts';
import { getRender } from '../../store/renders-repo.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { errorResponses, IdParams, MovieDocument } from '../http/schemas.ts';

/**
 * The movie document a render was made from, with its variables resolved: sent as `movie` to
 * POST /v1/renders it makes the same video again. The dashboard's "copy as curl" is built from it.
 */
const renderMovie: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/renders/:id/movie',
    {
      schema: {
        operationId: 'getRenderMovie',
        tags: ['renders'],
        summary: 'The resolved movie document of a render',
        params: IdParams,
        response: { 200: MovieDocument, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await getRender(app.db.sql, auth, request.params.id);
      if (!row) throw new AppError('NOT_FOUND', `No render ${request.params.id}.`, { path: 'id' });
      return row.movie as Record<string, unknown>;
    },
  );
};

export default renderMovie;
