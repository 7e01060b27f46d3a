import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { runMediaTool } from '../../lib/process/ffmpeg-runner.ts';
import { assetKey } from '../../lib/storage/keys.ts';
import { REQUEST_RETRY_MS } from '../../lib/storage/object-store.ts';
import { parseSubtitleFile } from '../../lib/subtitle-file.ts';
import {
  type AssetRow,
  deleteAsset,
  getAsset,
  getAssetById,
  insertAsset,
  listAssets,
} from '../../store/assets-repo.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { payloadTooLarge } from '../http/body-limit.ts';
import { DateTime, errorResponses, IdParams, ListMeta, Nullable, PageQuery, StringEnum } from '../http/schemas.ts';
import '../execution/decorations.ts';
import { scratchDirs } from '../execution/scratch-sweeper.ts';
import { SNIFF_BYTES, type SniffedType, sniffMedia } from './media-sniff.ts';
import { UploadBody } from './upload-body.ts';

export const AssetResourceSchema = Type.Object(
  {
    id: Type.String(),
    kind: StringEnum(['image', 'audio', 'video', 'subtitles'] as const),
    contentType: Type.String({ description: 'Sniffed from the bytes, not taken from the upload headers.' }),
    size: Type.Integer({ minimum: 0 }),
    name: Nullable(Type.String()),
    url: Type.String({ format: 'uri', description: 'Use this in movie documents (e.g. an image src).' }),
    createdAt: DateTime,
  },
  { $id: 'AssetResource', additionalProperties: false },
);

const AssetListSchema = Type.Object({ items: Type.Array(AssetResourceSchema), ...ListMeta });

/** Decodes the staged upload once, so a corrupt file is refused now instead of failing a render later. */
async function checkDecodable(file: string, type: SniffedType, ffprobePath: string): Promise<void> {
  if (type.kind === 'subtitles') {
    // Parsed as the render will parse it: a malformed file is refused with the line at fault.
    await parseSubtitleFile(await readFile(file));
    return;
  }
  if (type.kind === 'image') {
    const meta = await sharp(file, { pages: 1 }).metadata();
    if (!meta.width || !meta.height) throw new Error('no image dimensions');
    return;
  }
  const stdout = await runMediaTool(
    ffprobePath,
    ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', file],
    { timeoutMs: 20_000 },
  );
  const streams = stdout
    .toString()
    .split('\n')
    .map((s) => s.trim());
  if (!streams.includes(type.kind === 'video' ? 'video' : 'audio')) throw new Error(`no ${type.kind} stream`);
}

/**
 * Assets (the spec's "not shown" endpoints): upload an image, audio, video or subtitle file as the raw
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

  const maxBytes = app.config.assetMaxBytes;
  // Uploads are staged here while they stream in: decoding needs the whole file, and memory must
  // not hold it. Under DATA_DIR, beside the objects and the render scratch space.
  const stagingDir = scratchDirs(app.config.dataDir).uploads;
  const tooLarge = (headers?: Record<string, string>) => payloadTooLarge(maxBytes, headers);

  // Uploads are raw bytes of any declared type; only this plugin's routes see this parser. No
  // parseAs: the handler gets the request stream itself and streams it under its own limit,
  // where Fastify would buffer the whole body first.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  /**
   * Streams the body to a staging file, counting its bytes against the limit; the type is sniffed
   * from the first bytes before anything is written. A refused upload stores nothing, and what
   * its client still sends is discarded so the client reads the answer.
   */
  async function stage(
    body: Readable,
    stagingName: string,
  ): Promise<{ file: string; type: SniffedType; size: number }> {
    const upload = new UploadBody(body, maxBytes, () => tooLarge());
    let file: string | undefined;
    try {
      const head = await upload.peek(SNIFF_BYTES);
      if (head.length === 0) {
        throw new AppError('ASSET_INVALID', 'The request body is empty: send the file bytes as the body.');
      }
      const type = sniffMedia(head);
      if (!type) {
        throw new AppError(
          'ASSET_INVALID',
          'Unsupported media: upload PNG, JPEG, WebP, GIF or SVG images, MP3, WAV, OGG, FLAC or M4A audio, MP4, MOV or WebM video, or SRT or WebVTT subtitles.',
        );
      }
      await mkdir(stagingDir, { recursive: true });
      // ffprobe takes the extension as a hint, as it did when the buffer was written out whole.
      file = path.join(stagingDir, `${stagingName}.${type.extension}`);
      // A full disk is the platform's fault: an AppError (507), refused as a bad upload is.
      await upload.saveTo(file);
      return { file, type, size: upload.received };
    } catch (err) {
      if (file) await rm(file, { force: true });
      if (err instanceof AppError) {
        upload.discardRest();
        throw err;
      }
      if (body.destroyed && !upload.complete) {
        // The client disconnected mid-upload: nobody reads this answer, and it is no fault of ours.
        throw new AppError('VALIDATION_ERROR', 'The upload ended before its last byte.', { cause: err });
      }
      throw err;
    }
  }

  app.post(
    '/assets',
    {
      // Enforced by the handler while it streams; set here too so the route reports its limit.
      bodyLimit: maxBytes,
      schema: {
        operationId: 'uploadAsset',
        tags: ['assets'],
        summary: 'Upload an image, audio, video or subtitle (SRT, WebVTT) file (raw bytes, up to 100 MB)',
        querystring: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
        response: {
          201: AssetResourceSchema,
          ...errorResponses('PAYLOAD_TOO_LARGE', 'ASSET_INVALID', 'INSUFFICIENT_STORAGE'),
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      // A declared length over the limit is refused before a byte is read. The client is sending
      // it anyway, so the connection closes after the answer (as Fastify does for JSON bodies).
      if (Number(request.headers['content-length']) > maxBytes) throw tooLarge({ connection: 'close' });
      const body = request.body as Readable | undefined;
      if (!body) throw new AppError('ASSET_INVALID', 'The request body is empty: send the file bytes as the body.');
      const id = newId('ast');
      const staged = await stage(body, id);
      try {
        try {
          await checkDecodable(staged.file, staged.type, app.config.ffprobePath);
        } catch (err) {
          if (err instanceof AppError && err.code === 'ASSET_INVALID') throw err;
          throw new AppError('ASSET_INVALID', `The file looks like ${staged.type.contentType} but cannot be decoded.`, {
            cause: err,
          });
        }
        const objectKey = assetKey(id, staged.type.extension);
        // Streamed from disk by both adapters; the object appears whole or not at all. A store that
        // stays unreachable for a few seconds is a 503 with Retry-After: the client holds the bytes.
        await app.objects.putFile(objectKey, staged.file, staged.type.contentType, { retryForMs: REQUEST_RETRY_MS });
        try {
          const row = await insertAsset(app.db.sql, {
            id,
            accountId: auth.accountId,
            mode: auth.mode,
            kind: staged.type.kind,
            contentType: staged.type.contentType,
            size: staged.size,
            name: request.query.name ?? null,
            objectKey,
            createdAt: app.now(),
          });
          return reply.code(201).send(resource(row));
        } catch (err) {
          // A failed request stores nothing: the object goes when its row could not be written.
          await app.objects.delete(objectKey, { retryForMs: REQUEST_RETRY_MS });
          throw err;
        }
      } finally {
        await rm(staged.file, { force: true });
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
      // The bytes go first, then the row: a store that cannot be reached fails the request with
      // nothing changed (retry it), and a retry after a lost row delete finds the object gone
      // already (deleting a missing object succeeds). Never a row gone and its object stranded.
      const found = await getAsset(app.db.sql, auth, request.params.id);
      if (!found) throw notFound(request.params.id);
      await app.objects.delete(found.objectKey, { retryForMs: REQUEST_RETRY_MS });
      if (!(await deleteAsset(app.db.sql, auth, request.params.id))) throw notFound(request.params.id);
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
      const object = row && (await app.objects.get(row.objectKey, undefined, { retryForMs: REQUEST_RETRY_MS }));
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
