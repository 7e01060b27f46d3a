import type { ObjectStore } from '../../lib/storage/object-store.ts';
import type { OutputLinks } from './output-links.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Object storage of outputs and assets (local disk or S3). */
    objects: ObjectStore;
    /** Signs and verifies the download links of outputUrl. */
    outputLinks: OutputLinks;
  }
}
