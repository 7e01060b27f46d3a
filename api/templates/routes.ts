import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { AppError, type Finding } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { checkTemplateDocument } from '../../movie/template-check.ts';
import {
  deleteTemplate,
  getTemplate,
  insertTemplate,
  listTemplates,
  updateTemplate,
} from '../../store/templates-repo.ts';
import type { TemplateRow } from '../../store/types.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { errorResponses, IdempotencyHeader, IdParams } from '../http/schemas.ts';
import { createRender } from '../renders/create-render.ts';
import { renderResource } from '../renders/render-resource.ts';
import { CREATE_RENDER_CODES } from '../renders/routes.ts';
import { RenderResourceSchema, TemplateRenderBody } from '../renders/schemas.ts';
import {
  CreateTemplateBody,
  ListTemplatesQuery,
  TemplateListSchema,
  TemplateResourceSchema,
  TemplateWriteResourceSchema,
  UpdateTemplateBody,
} from './schemas.ts';

type TemplateResource = Static<typeof TemplateResourceSchema>;

const TEMPLATE_CODES = [
  'SCHEMA_INVALID',
  'UNSUPPORTED_SCHEMA_VERSION',
  'ELEMENT_ID_DUPLICATE',
  'SCENE_ID_DUPLICATE',
  'SCENE_EMPTY',
  'VARIABLE_UNDECLARED',
  'PAYLOAD_TOO_LARGE',
] as const;

function templateResource(row: TemplateRow): TemplateResource {
  return {
    id: row.id,
    name: row.name,
    body: row.body as Record<string, unknown>,
    variables: row.variables as TemplateResource['variables'],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Template-mode check: the manifest to store and the warnings to show once (never stored). */
function checkTemplate(body: unknown): { variables: Record<string, unknown>; warnings: Finding[] } {
  const result = checkTemplateDocument(body);
  if (!result.ok) throw AppError.fromFindings(result.findings);
  return { variables: result.value.manifest, warnings: result.warnings };
}

function notFound(id: string): AppError {
  return new AppError('NOT_FOUND', `No template ${id}.`, { path: 'id' });
}

const templates: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/templates',
    {
      config: { movieDocument: 'body' },
      schema: {
        operationId: 'createTemplate',
        tags: ['templates'],
        summary: 'Create a template',
        body: CreateTemplateBody,
        response: { 201: TemplateWriteResourceSchema, ...errorResponses(...TEMPLATE_CODES) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { variables, warnings } = checkTemplate(request.body.body);
      const row = await insertTemplate(app.db.sql, {
        id: newId('tpl'),
        accountId: auth.accountId,
        mode: auth.mode,
        name: request.body.name,
        body: request.body.body,
        variables,
        now: app.now(),
      });
      return reply.code(201).send({ ...templateResource(row), warnings });
    },
  );

  app.get(
    '/templates',
    {
      schema: {
        operationId: 'listTemplates',
        tags: ['templates'],
        summary: "List the caller's templates, newest first",
        querystring: ListTemplatesQuery,
        response: { 200: TemplateListSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const page = request.query.page ?? 1;
      const pageSize = request.query.page_size ?? 20;
      const { rows, total } = await listTemplates(app.db.sql, auth, {
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return { items: rows.map(templateResource), page, pageSize, total, hasMore: page * pageSize < total };
    },
  );

  app.get(
    '/templates/:id',
    {
      schema: {
        operationId: 'getTemplate',
        tags: ['templates'],
        summary: 'Fetch a template',
        params: IdParams,
        response: { 200: TemplateResourceSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await getTemplate(app.db.sql, auth, request.params.id);
      if (!row) throw notFound(request.params.id);
      return templateResource(row);
    },
  );

  app.put(
    '/templates/:id',
    {
      config: { movieDocument: 'body' },
      schema: {
        operationId: 'updateTemplate',
        tags: ['templates'],
        summary: 'Replace the name and/or the document of a template',
        params: IdParams,
        body: UpdateTemplateBody,
        response: { 200: TemplateWriteResourceSchema, ...errorResponses(...TEMPLATE_CODES, 'NOT_FOUND') },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { name, body } = request.body;
      const checked = body !== undefined ? checkTemplate(body) : undefined;
      const row = await updateTemplate(app.db.sql, auth, request.params.id, {
        name,
        ...(checked ? { body: { body, variables: checked.variables } } : {}),
        now: app.now(),
      });
      if (!row) throw notFound(request.params.id);
      // A rename re-reads the stored document's warnings: they are shown, never stored.
      const stored = checked ? undefined : checkTemplateDocument(row.body);
      const warnings = checked ? checked.warnings : stored?.ok ? stored.warnings : [];
      return { ...templateResource(row), warnings };
    },
  );

  app.delete(
    '/templates/:id',
    {
      schema: {
        operationId: 'deleteTemplate',
        tags: ['templates'],
        summary: 'Delete a template (renders made from it stay)',
        params: IdParams,
        response: { 204: { type: 'null', description: 'Deleted.' }, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (!(await deleteTemplate(app.db.sql, auth, request.params.id))) throw notFound(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/templates/:id/renders',
    {
      schema: {
        operationId: 'createTemplateRender',
        tags: ['templates', 'renders'],
        summary: 'Render a template with variable values',
        description: 'Same creation path as POST /v1/renders; finding paths are relative to the template body.',
        params: IdParams,
        headers: IdempotencyHeader,
        body: TemplateRenderBody,
        response: {
          201: RenderResourceSchema,
          200: { ...RenderResourceSchema, description: 'Idempotent replay of the original render.' },
          ...errorResponses(...CREATE_RENDER_CODES, 'NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const template = await getTemplate(app.db.sql, auth, request.params.id);
      if (!template) throw notFound(request.params.id);
      const body = template.body as Record<string, unknown>;
      const document = request.body.draft === undefined ? body : { ...body, draft: request.body.draft };
      const { render, replayed } = await createRender(app, request, auth, {
        document,
        variables: request.body.variables,
        webhookUrl: request.body.webhook_url,
        templateId: template.id,
      });
      return reply.code(replayed ? 200 : 201).send(renderResource(render, app.links));
    },
  );
};

export default templates;
