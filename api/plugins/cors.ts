import fp from 'fastify-plugin';

/**
 * The routes a page on another origin may call (the browser player's: POST /v1/previews and a
 * preview's files). A preflight (OPTIONS) is answered before any route or auth runs, so its path
 * is matched here, for the real requests too: one table.
 */
const CORS_PATHS: readonly RegExp[] = [/^\/v1\/previews\/?$/, /^\/v1\/previews\/[^/]+\/files\/[^/]+$/];

/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SEC = 600;

/**
 * CORS for CORS_ALLOWED_ORIGINS (none by default; `*` for any). Only the routes above, only GET
 * and POST, only the Authorization and Content-Type headers, never credentials (cookies): a page
 * sends a preview token in Authorization. The header and the preflight are a dozen lines each;
 * a general plugin's preflight route would have to pass our auth and route-table plugins, which
 * refuse unknown methods.
 */
export const corsPlugin = fp(
  async (app) => {
    const allowed = app.config.corsAllowedOrigins;
    if (allowed.length === 0) return;
    const any = allowed.includes('*');
    const origins = new Set(allowed);
    const allowOrigin = (origin: string | undefined) =>
      origin !== undefined && (any || origins.has(origin)) ? (any ? '*' : origin) : undefined;

    app.addHook('onRequest', (request, reply, done) => {
      const origin = allowOrigin(request.headers.origin);
      const path = request.url.split('?')[0] ?? '';
      if (!origin || !CORS_PATHS.some((p) => p.test(path))) return done();
      reply.header('access-control-allow-origin', origin);
      if (!any) reply.header('vary', 'Origin');
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
        reply
          .header('access-control-allow-methods', 'GET, POST')
          .header('access-control-allow-headers', 'authorization, content-type')
          .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SEC))
          .code(204)
          .send();
        return;
      }
      reply.header(
        'access-control-expose-headers',
        'retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-request-id',
      );
      done();
    });
  },
  { name: 'cors', dependencies: ['config'] },
);
