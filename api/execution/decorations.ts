import type { ObjectStore } from '../../lib/storage/object-store.ts';
import type { SignedLinks } from '../outputs/output-links.ts';
import type { PreviewStore } from '../previews/preview-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Object storage of outputs and assets (local disk or S3). */
    objects: ObjectStore;
    /** Signs and verifies the links of outputUrl and of asset urls. */
    links: SignedLinks;
    /** The browser player's previews this process prepared (api/previews/). */
    previews: PreviewStore;
  }
}
