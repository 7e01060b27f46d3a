import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import {
  type AssetRow,
  deleteAsset,
  getAsset,
  getAssetById,
  insertAsset,
  listAssets,
} from '../../store/assets-repo.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { DateTime, errorResponses, IdParams, ListMeta, Nullable, PageQuery, StringEnum } from '../schemas/common.ts';
import './decorations.ts';
import { type SniffedType, sniffMedia } from './media-sniff.ts';

const run = promisify(execFile);

/** Upload limit of one asset (the JSON body limit does not apply here). */
export const ASSET_MAX_BYTES = 100 * 1024 * 1024;

export const AssetResourceSchema = Type.Object(
  {
    id: Type.String(),
    kind: StringEnum(['image', 'audio', 'video'] as const),
    contentType: Type.String({ description: 'Sniffed from the bytes, not taken from the upload headers.' }),
    size: Type.Integer({ minimum: 0 }),
    name: Nullable(Type.String()),
    url: Type.String({ format: 'uri', description: 'Use this in movie documents (e.g. an image src).' }),
    createdAt: DateTime,
  },
  { $id: 'AssetResource', additionalProperties: false },
);

const AssetListSchema = Type.Object({ items: Type.Array(AssetResourceSchema), ...ListMeta });

/** Decodes the upload once, so a corrupt file is refused now instead of failing a render later. */
async function checkDecodable(bytes: Buffer, type: SniffedType, ffprobePath: string): Promise<void> {
  if (type.kind === 'image') {
    const meta = await sharp(bytes, { pages: 1 }).metadata();
    if (!meta.width || !meta.height) throw new Error('no image dimensions');
    return;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-asset-'));
  try {
    const file = path.join(dir, `upload.${type.extension}`);
    await writeFile(file, bytes);
    const { stdout } = await run(
      ffprobePath,
      ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', file],
      { timeout: 20_000 },
    );
    const streams = stdout.split('\n').map((s) => s.trim());
    if (!streams.includes(type.kind === 'video' ? 'video' : 'audio')) throw new Error(`no ${type.kind} stream`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Assets (the spec's "not shown" endpoints): upload an image, audio or video file as the raw
 * request body (`Content-Type` is ignored: the type is sniffed), list, fetch, delete. The `url`
 * of an asset is a signed link to its content that the worker can always fetch.
 */
const assetsRoute: FastifyPluginAsyncTypebox = async (app) => {
  const resource = (row: AssetRow) => ({
    id: row.id,
    kind: row.kind,
    contentType: row.contentType,
    size: row.size,
    name: row.name,
    url: app.links.assetUrl(row.id),
    createdAt: row.createdAt.toISOString(),
  });
  const notFound = (id: string) => new AppError('NOT_FOUND', `No asset ${id} for this API key.`);

  // Uploads are raw bytes of any declared type; only this plugin's routes see this parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ASSET_MAX_BYTES }, (_req, body, done) =>
    done(null, body),
  );

  app.post(
    '/assets',
    {
      bodyLimit: ASSET_MAX_BYTES,
      schema: {
        operationId: 'uploadAsset',
        tags: ['assets'],
        summary: 'Upload an image, audio or video file (raw bytes, up to 100 MB)',
        querystring: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
        response: {
          201: AssetResourceSchema,
          ...errorResponses('PAYLOAD_TOO_LARGE', 'ASSET_INVALID'),
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const bytes = request.body as Buffer | undefined;
      if (!Buffer.isBuffer(bytes) || bytes.length === 0) {
        throw new AppError('ASSET_INVALID', 'The request body is empty: send the file bytes as the body.');
      }
      const type = sniffMedia(bytes);
      if (!type) {
        throw new AppError(
          'ASSET_INVALID',
          'Unsupported media: upload PNG, JPEG, WebP, GIF or SVG images, MP3, WAV, OGG, FLAC or M4A audio, or MP4, MOV or WebM video.',
        );
      }
      try {
        await checkDecodable(bytes, type, app.config.ffprobePath);
      } catch (err) {
        throw new AppError('ASSET_INVALID', `The file looks like ${type.contentType} but cannot be decoded.`, {
          cause: err,
        });
      }
      const id = newId('ast');
      const objectKey = `assets/${id}.${type.extension}`;
      await app.objects.putBuffer(objectKey, bytes, type.contentType);
      try {
        const row = await insertAsset(app.db.sql, {
          id,
          accountId: auth.accountId,
          mode: auth.mode,
          kind: type.kind,
          contentType: type.contentType,
          size: bytes.length,
          name: request.query.name ?? null,
          objectKey,
          createdAt: app.now(),
        });
        return reply.code(201).send(resource(row));
      } catch (err) {
        // A failed request stores nothing: the object goes when its row could not be written.
        await app.objects.delete(objectKey);
        throw err;
      }
    },
  );

  app.get(
    '/assets',
    {
      schema: {
        operationId: 'listAssets',
        tags: ['assets'],
        summary: "List the caller's assets, newest first",
        querystring: Type.Object(PageQuery),
        response: { 200: AssetListSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const page = request.query.page ?? 1;
      const pageSize = request.query.page_size ?? 20;
      const { rows, total } = await listAssets(app.db.sql, auth, { limit: pageSize, offset: (page - 1) * pageSize });
      return { items: rows.map(resource), page, pageSize, total, hasMore: page * pageSize < total };
    },
  );

  app.get(
    '/assets/:id',
    {
      schema: {
        operationId: 'getAsset',
        tags: ['assets'],
        summary: 'Fetch an asset',
        params: IdParams,
        response: { 200: AssetResourceSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await getAsset(app.db.sql, auth, request.params.id);
      if (!row) throw notFound(request.params.id);
      return resource(row);
    },
  );

  app.delete(
    '/assets/:id',
    {
      schema: {
        operationId: 'deleteAsset',
        tags: ['assets'],
        summary: 'Delete an asset (documents that reference it will fail with ASSET_UNREACHABLE)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const row = await deleteAsset(app.db.sql, auth, request.params.id);
      if (!row) throw notFound(request.params.id);
      await app.objects.delete(row.objectKey);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/assets/:id/content',
    {
      config: { public: true },
      schema: {
        operationId: 'getAssetContent',
        tags: ['assets'],
        summary: "An asset's bytes through its signed url",
        security: [],
        params: IdParams,
        querystring: Type.Object({ sig: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: {
          200: Type.Unsafe({ description: 'The file, with its sniffed Content-Type' }),
          302: Type.Null({ description: 'Redirect to a short-lived presigned object-storage URL' }),
          ...errorResponses('NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!app.links.verifyAsset(id, request.query.sig)) throw new AppError('NOT_FOUND', 'No such asset.');
      const row = await getAssetById(app.db.sql, id);
      const object = row && (await app.objects.get(row.objectKey));
      if (!row || !object) throw new AppError('NOT_FOUND', 'No such asset.');
      return (
        reply
          .header('content-type', row.contentType)
          .header('content-length', object.size)
          .header('x-content-type-options', 'nosniff')
          // An uploaded SVG must never run script in the API's origin.
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
          .send(object.body)
      );
    },
  );
};

export default assetsRoute;
