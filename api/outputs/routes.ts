import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../lib/errors.ts';
import { contentType, extension } from '../../lib/output-formats.ts';
import { parseRange, REQUEST_RETRY_MS } from '../../lib/storage/object-store.ts';
import { getOutput } from '../../store/lifecycle/outputs-repo.ts';
import { errorResponses } from '../http/schemas.ts';
import '../execution/decorations.ts';

/** Presigned S3 links are short-lived: the signed API link is the durable one. */
const PRESIGN_SEC = 300;

/**
 * GET /v1/outputs/{id}: the target of `outputUrl`. The signature in the query, not an API key,
 * authorises it, so the link can be handed to a browser. Local files are streamed with Range
 * support (browsers seek in videos); S3 objects redirect to a fresh presigned URL. The output's
 * format (`output.format` of its movie) is named by its key's extension (lib/storage/keys.ts):
 * the Content-Type and the filename come from it.
 */
const outputsRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/outputs/:id',
    {
      config: { public: true },
      schema: {
        operationId: 'downloadOutput',
        tags: ['renders'],
        summary:
          "Download a render's output (MP4, WebM, MOV, GIF, MP3, WAV, PNG, JPEG, WebP) through its signed outputUrl",
        security: [],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object({
          expires: Type.Integer({ minimum: 0 }),
          sig: Type.String({ minLength: 1, maxLength: 128 }),
        }),
        response: {
          200: Type.Unsafe({
            description:
              "The output, with its format's Content-Type: video/mp4, video/webm, video/quicktime, image/gif, audio/mpeg, audio/wav, image/png, image/jpeg or image/webp",
          }),
          206: Type.Unsafe({ description: 'The requested byte range of the output' }),
          302: Type.Null({ description: 'Redirect to a short-lived presigned object-storage URL' }),
          416: Type.Null({ description: 'The requested range lies outside the file' }),
          ...errorResponses('NOT_FOUND', 'OUTPUT_EXPIRED'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { expires, sig } = request.query;
      // A bad signature and an unknown id look the same: links cannot be probed for existence.
      if (!app.links.verifyOutput(id, expires, sig)) throw new AppError('NOT_FOUND', 'No such output.');
      const row = await getOutput(app.db.sql, id);
      if (!row?.outputKey) throw new AppError('NOT_FOUND', 'No such output.');
      if (expires * 1000 < app.now().getTime() || row.outputDeletedAt) {
        throw new AppError('OUTPUT_EXPIRED', 'This output passed its retention period and was deleted.');
      }
      const format = row.outputFormat;
      const filename = `${id}.${extension(format)}`;
      if (app.objects.presignGet) {
        return reply.redirect(await app.objects.presignGet(row.outputKey, PRESIGN_SEC, filename), 302);
      }
      const info = await app.objects.head(row.outputKey, { retryForMs: REQUEST_RETRY_MS });
      if (!info) throw new AppError('OUTPUT_EXPIRED', 'This output is no longer stored.');
      const range = parseRange(request.headers.range, info.size);
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', contentType(format))
        .header('content-disposition', `inline; filename="${filename}"`)
        .header('cache-control', 'private, max-age=3600');
      if (range === 'unsatisfiable') {
        return reply.code(416).header('content-range', `bytes */${info.size}`).send();
      }
      const object = await app.objects.get(row.outputKey, range, { retryForMs: REQUEST_RETRY_MS });
      if (!object) throw new AppError('OUTPUT_EXPIRED', 'This output is no longer stored.');
      if (range) {
        reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
          .header('content-length', range.end - range.start + 1);
      } else {
        reply.header('content-length', info.size);
      }
      return reply.send(object.body);
    },
  );
};

export default outputsRoute;
