import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../lib/errors.ts';
import { posterKey, thumbnailKey } from '../../lib/storage/keys.ts';
import { REQUEST_RETRY_MS } from '../../lib/storage/object-store.ts';
import { getOutput } from '../../store/lifecycle/outputs-repo.ts';
import { errorResponses, StringEnum } from '../http/schemas.ts';
import '../execution/decorations.ts';
import type { RenderImage } from './output-links.ts';
import { renderImages } from './render-images.ts';

/** Presigned S3 links are short-lived: the signed API link is the durable one. */
const PRESIGN_SEC = 300;

const IMAGES: Record<RenderImage, { key: (id: string) => string; contentType: string; extension: string }> = {
  poster: { key: posterKey, contentType: 'image/jpeg', extension: 'jpg' },
  thumbnail: { key: thumbnailKey, contentType: 'image/webp', extension: 'webp' },
};

/**
 * GET /v1/outputs/{id}/poster and /thumbnail: the targets of a render's `posterUrl` and
 * `thumbnailUrl`, signed like `outputUrl` (api/outputs/output-links.ts) and expiring with it; the
 * output sweeper deletes them with the output. Small images: served whole (no ranges), or a
 * redirect to a presigned S3 URL.
 */
const imageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/outputs/:id/:image',
    {
      config: { public: true },
      schema: {
        operationId: 'downloadOutputImage',
        tags: ['renders'],
        summary: "Download a render's poster (JPEG) or thumbnail (WebP) through its signed posterUrl or thumbnailUrl",
        security: [],
        params: Type.Object({
          id: Type.String({ minLength: 1, maxLength: 64 }),
          image: StringEnum<RenderImage>(['poster', 'thumbnail']),
        }),
        querystring: Type.Object({
          expires: Type.Integer({ minimum: 0 }),
          sig: Type.String({ minLength: 1, maxLength: 128 }),
        }),
        response: {
          200: Type.Unsafe({ description: 'The poster (image/jpeg) or the thumbnail (image/webp)' }),
          302: Type.Null({ description: 'Redirect to a short-lived presigned object-storage URL' }),
          ...errorResponses('NOT_FOUND', 'OUTPUT_EXPIRED'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const image = request.params.image as RenderImage;
      const { expires, sig } = request.query;
      // A bad signature and an unknown id look the same: links cannot be probed for existence.
      if (!app.links.verifyImage(id, image, expires, sig)) throw new AppError('NOT_FOUND', 'No such image.');
      const row = await getOutput(app.db.sql, id);
      if (!row?.outputKey || !renderImages(row.outputFormat)[image]) {
        throw new AppError('NOT_FOUND', 'No such image.');
      }
      if (expires * 1000 < app.now().getTime() || row.outputDeletedAt) {
        throw new AppError('OUTPUT_EXPIRED', 'This output passed its retention period and was deleted.');
      }
      const { key: keyOf, contentType, extension } = IMAGES[image];
      const key = keyOf(id);
      const filename = `${id}-${image}.${extension}`;
      if (app.objects.presignGet) {
        return reply.redirect(await app.objects.presignGet(key, PRESIGN_SEC, filename), 302);
      }
      const info = await app.objects.head(key, { retryForMs: REQUEST_RETRY_MS });
      const object = info && (await app.objects.get(key, undefined, { retryForMs: REQUEST_RETRY_MS }));
      // A render finished before posters were made has none.
      if (!info || !object) throw new AppError('NOT_FOUND', 'This render has no stored image.');
      return reply
        .header('content-type', contentType)
        .header('content-length', info.size)
        .header('content-disposition', `inline; filename="${filename}"`)
        .header('cache-control', 'private, max-age=3600')
        .send(object.body);
    },
  );
};

export default imageRoutes;
