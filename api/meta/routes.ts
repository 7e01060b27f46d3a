import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError, ERROR_CATALOG, isErrorCode } from '../../lib/errors.ts';
import { movieJsonSchema } from '../../movie/index.ts';
import { ErrorEnvelopeSchema } from '../http/schemas.ts';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Public documents: the OpenAPI description, the movie JSON Schema and the error pages. */
const meta: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json').send(app.swagger()),
  );

  app.get(
    '/v1/schemas/movie.v1.json',
    {
      config: { public: true },
      schema: {
        operationId: 'getMovieSchema',
        tags: ['meta'],
        summary: 'JSON Schema (2020-12) of v1 movie documents',
        security: [],
        response: {
          200: {
            description: 'JSON Schema 2020-12.',
            content: { 'application/schema+json': { schema: Type.Object({}, { additionalProperties: true }) } },
          },
        },
      },
    },
    async (_request, reply) => reply.type('application/schema+json').send(movieJsonSchema('v1')),
  );

  app.get(
    '/docs/errors/:code',
    {
      config: { public: true },
      schema: {
        operationId: 'getErrorDoc',
        tags: ['meta'],
        summary: 'Documentation page of an error code',
        security: [],
        params: Type.Object({ code: Type.String({ description: 'An error code.', examples: ['VALIDATION_ERROR'] }) }),
        response: {
          200: { description: 'HTML page.', content: { 'text/html': { schema: Type.String() } } },
          404: ErrorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const code = request.params.code;
      if (!isErrorCode(code)) throw new AppError('NOT_FOUND', `No error code ${code}.`, { path: 'code' });
      const entry = ERROR_CATALOG[code];
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${code}</title></head><body>
<h1>${code}</h1><p><strong>HTTP ${entry.status}</strong> &middot; ${escapeHtml(entry.title)}</p>
<p>${escapeHtml(entry.doc)}</p></body></html>\n`;
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );
};

export default meta;
