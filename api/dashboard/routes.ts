import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { type DashboardFiles, loadDashboard } from './files.ts';

/**
 * The policy of every dashboard page and file. Scripts, styles, images and API calls come from
 * this origin only (no inline script or style, no eval, no third party); nothing may frame it.
 * Media may also come from PUBLIC_BASE_URL's origin (outputUrl points there, and behind a proxy
 * it can differ from the origin the browser uses) and, with S3 storage, from the bucket a
 * download link redirects to (its host is the operator's S3 endpoint, so any http(s) origin:
 * only for video, audio and images, which cannot run code). Images come from the same places: a
 * render's thumbnail, poster and still are signed links like its video.
 */
export function contentSecurityPolicy(publicBaseUrl: string, objectsInS3: boolean): string {
  const media = ["'self'", new URL(publicBaseUrl).origin, ...(objectsInS3 ? ['https:', 'http:'] : [])];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${[...new Set(media)].join(' ')}`,
    // blob: the live preview's clips, fetched whole and played from memory (player/src/clips.ts).
    `media-src ${[...new Set(media)].join(' ')} blob:`,
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * GET /dashboard (the page) and GET /dashboard/{file} (its script, stylesheet and icon): the web
 * dashboard, signed in with an API key that stays in the tab (api/../dashboard/README in
 * docs/dashboard.md). Public routes: the page holds no data; every call it makes is an API call
 * with the key in the Authorization header. Not in the OpenAPI document: it is not API.
 */
const dashboard: FastifyPluginAsyncTypebox = async (app) => {
  const csp = contentSecurityPolicy(app.config.publicBaseUrl, app.objects.kind === 's3');
  let files: Promise<DashboardFiles> | undefined;
  // Built or read on the first request, not at start-up: most apps (tests, workers) never serve it.
  const load = () => {
    files ??= loadDashboard().catch((err) => {
      files = undefined; // a failed build is tried again on the next request
      throw err;
    });
    return files;
  };

  async function send(reply: FastifyReply, name: string) {
    const file = (await load()).get(name);
    if (!file) throw new AppError('NOT_FOUND', `No dashboard file ${name}.`);
    return reply
      .headers({
        'content-type': file.type,
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
        // Small files, fetched again on every load: a new build shows at once.
        'cache-control': 'no-cache',
      })
      .send(file.body);
  }

  const hidden = { hide: true } as const;
  app.get('/dashboard', { config: { public: true }, schema: hidden }, async (_request, reply) =>
    send(reply, 'index.html'),
  );
  app.get(
    '/dashboard/:file',
    { config: { public: true }, schema: { ...hidden, params: Type.Object({ file: Type.String() }) } },
    async (request, reply) => {
      const name = request.params.file;
      // index.html only at /dashboard, so that relative URLs in it resolve one way.
      if (name === 'index.html') throw new AppError('NOT_FOUND', `No dashboard file ${name}.`);
      return send(reply, name);
    },
  );
};

export default dashboard;
