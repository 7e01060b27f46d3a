import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorBody, type Finding } from '../../lib/errors.ts';
import { resolveMovie } from '../../movie/index.ts';
import { checkTemplateDocument } from '../../movie/template-check.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { documentFindingOf } from '../http/json-parser.ts';
import { ErrorBodySchema, errorResponses, MovieDocument, VariableValues } from '../http/schemas.ts';
import { EXAMPLE_MOVIE } from '../renders/schemas.ts';
import { VariableManifestSchema, WarningSchema } from './schemas.ts';

const CheckTemplateBody = Type.Object(
  {
    body: MovieDocument,
    variables: Type.Optional(VariableValues),
  },
  {
    additionalProperties: false,
    description: 'A template document, and optionally the values a render would be given.',
    examples: [{ body: EXAMPLE_MOVIE }],
  },
);

const CheckResultSchema = Type.Object(
  {
    valid: Type.Boolean({ description: 'Whether POST /v1/templates (or, with variables, a render) would accept it.' }),
    errors: Type.Array(ErrorBodySchema, { description: 'Every finding, as the write would answer them.' }),
    warnings: Type.Array(WarningSchema),
    variables: VariableManifestSchema,
  },
  { additionalProperties: false },
);

/**
 * A dry run of a template write (and, given values, of rendering it): the findings the write would
 * answer, with their paths, without storing anything. The dashboard's editor calls it as a person
 * types; the checks are the movie library's, the same that POST /v1/templates and the render run.
 */
const templateCheck: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/templates/check',
    {
      // A NUL or lone surrogate in the document is one of its findings, answered like the others.
      config: { movieDocument: 'body', answersDocumentFindings: true },
      schema: {
        operationId: 'checkTemplate',
        tags: ['templates'],
        summary: 'Check a template document (and variable values) without storing anything',
        body: CheckTemplateBody,
        response: { 200: CheckResultSchema, ...errorResponses('PAYLOAD_TOO_LARGE') },
      },
    },
    async (request) => {
      requireAuth(request);
      const shown = (fs: Finding[]) => fs.map((f) => errorBody(app.config.publicBaseUrl, f.code, f.message, f.path));
      const refused = documentFindingOf(request);
      if (refused) return { valid: false, errors: shown([refused]), warnings: [], variables: {} };
      const { body, variables } = request.body;
      const template = checkTemplateDocument(body);
      if (!template.ok) return { valid: false, errors: shown(template.findings), warnings: [], variables: {} };
      const manifest = template.value.manifest as Record<string, { type: 'string' }>;
      const resolved = variables === undefined ? undefined : resolveMovie(body, variables);
      const errors = resolved && !resolved.ok ? shown(resolved.findings) : [];
      return { valid: errors.length === 0, errors, warnings: template.warnings, variables: manifest };
    },
  );
};

export default templateCheck;
