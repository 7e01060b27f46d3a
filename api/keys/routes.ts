import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { AppError } from '../../lib/errors.ts';
import { getKey, type KeyScope, listScopedKeys, revokeKey } from '../../store/api-keys-repo.ts';
import type { ApiKeyRow, KeyMode } from '../../store/types.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { issueKey, rollApiKey } from '../auth/provision.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { emptyBodyAsObject, errorResponses, IdParams } from '../http/schemas.ts';
import {
  ApiKeySchema,
  CreateKeyBody,
  KeyListSchema,
  ListKeysQuery,
  NewApiKeySchema,
  RolledKeySchema,
} from './schemas.ts';

type ApiKeyResource = Static<typeof ApiKeySchema>;

/**
 * What a caller may manage: its own account's keys; a live key all of them, a test key only test
 * keys. A test key (handed to CI, a staging box) must not mint a live key that spends credits, nor
 * revoke the live keys production runs on. Everything else is NOT_FOUND, as an unknown id is.
 */
export function keyScope(auth: AuthContext): KeyScope {
  return { accountId: auth.accountId, modes: auth.mode === 'live' ? ['live', 'test'] : ['test'] };
}

function keyResource(row: ApiKeyRow, auth: AuthContext): ApiKeyResource {
  return {
    id: row.id,
    mode: row.mode,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
    replacedBy: row.replacedBy,
    current: row.id === auth.keyId,
  };
}

function notFound(id: string): AppError {
  return new AppError('NOT_FOUND', `No key ${id}.`, { path: 'id' });
}

/** API keys of the caller's account: list, create (secret shown once), fetch, roll, revoke. */
const keys: FastifyPluginAsyncTypebox = async (app) => {
  /** This process forgets a revoked key at once (other processes hear of it by NOTIFY). */
  const forget = (row: ApiKeyRow) => app.keyCache.delete(row.keyHash);

  app.get(
    '/keys',
    {
      schema: {
        operationId: 'listKeys',
        tags: ['keys'],
        summary: "List the account's API keys, newest first",
        description: 'A live key sees every key of its account, a test key only test keys. Secrets are never shown.',
        querystring: ListKeysQuery,
        response: { 200: KeyListSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const page = request.query.page ?? 1;
      const pageSize = request.query.page_size ?? 20;
      const { rows, total } = await listScopedKeys(
        app.db.sql,
        keyScope(auth),
        // StringEnum fields reach the type provider as unknown; ajv has checked them.
        { status: request.query.status as 'active' | 'revoked' | undefined },
        { limit: pageSize, offset: (page - 1) * pageSize },
      );
      return {
        items: rows.map((r) => keyResource(r, auth)),
        page,
        pageSize,
        total,
        hasMore: page * pageSize < total,
      };
    },
  );

  app.post(
    '/keys',
    {
      schema: {
        operationId: 'createKey',
        tags: ['keys'],
        summary: 'Create an API key; its secret is in this answer only',
        body: CreateKeyBody,
        response: { 201: NewApiKeySchema, ...errorResponses('PAYLOAD_TOO_LARGE') },
      },
      // An optional body (the document says so): a request without one means "a key of my mode".
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const mode = (request.body.mode as KeyMode | undefined) ?? auth.mode;
      if (!keyScope(auth).modes.includes(mode)) {
        throw new AppError('VALIDATION_ERROR', 'A test key can only create test keys; use a live key.', {
          path: 'mode',
        });
      }
      const { row, secret } = await issueKey(app.db.sql, auth.accountId, mode);
      return reply.code(201).send({ ...keyResource(row, auth), secret });
    },
  );

  app.get(
    '/keys/:id',
    {
      schema: {
        operationId: 'getKey',
        tags: ['keys'],
        summary: 'Fetch an API key (never its secret)',
        params: IdParams,
        response: { 200: ApiKeySchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await getKey(app.db.sql, request.params.id, keyScope(auth));
      if (!row) throw notFound(request.params.id);
      return keyResource(row, auth);
    },
  );

  app.post(
    '/keys/:id/roll',
    {
      schema: {
        operationId: 'rollKey',
        tags: ['keys'],
        summary: 'Roll an API key: a new key of the same mode first, then the old one revoked',
        description:
          'One transaction: there is no instant with neither key valid. The old key is refused from the moment this answers, by every API process. NOT_FOUND for a key already revoked.',
        params: IdParams,
        response: { 201: RolledKeySchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const rolled = await rollApiKey(app.db.sql, request.params.id, keyScope(auth));
      if (!rolled) throw new AppError('NOT_FOUND', `No active key ${request.params.id}.`, { path: 'id' });
      forget(rolled.revoked);
      const { row, secret } = rolled.created;
      return reply
        .code(201)
        .send({ created: { ...keyResource(row, auth), secret }, revoked: keyResource(rolled.revoked, auth) });
    },
  );

  app.delete(
    '/keys/:id',
    {
      schema: {
        operationId: 'revokeKey',
        tags: ['keys'],
        summary: 'Revoke an API key (it stays listed, with revokedAt)',
        description:
          'Refused from the moment this answers, by every API process. Revoking a revoked key answers it unchanged. The calling key may revoke itself.',
        params: IdParams,
        response: { 200: ApiKeySchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await getKey(app.db.sql, request.params.id, keyScope(auth));
      if (!row) throw notFound(request.params.id);
      if (row.revokedAt) return keyResource(row, auth);
      // Revoked meanwhile by someone else: the row as it now is.
      const revoked = (await revokeKey(app.db.sql, row.id)) ?? (await getKey(app.db.sql, row.id));
      forget(row);
      return keyResource(revoked ?? row, auth);
    },
  );
};

export default keys;
