import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { newId } from '../lib/ids.ts';
import type { Logger } from '../lib/logger.ts';
import type { Database } from '../store/database.ts';
import { countByStatus } from '../store/lifecycle/render-lifecycle.ts';
import { pendingCount } from '../store/lifecycle/webhook-outbox-repo.ts';
import type { ApiConfig } from './config.ts';
import './context.ts';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ApiMetrics } from '../lib/metrics/api-metrics.ts';
import { createRegistry } from '../lib/metrics/registry.ts';
import { LocalObjectStore } from '../lib/storage/local-store.ts';
import type { ObjectStore } from '../lib/storage/object-store.ts';
import { type ExecutorPort, QueueOnlyExecutor } from './execution/executor.ts';
import './execution/decorations.ts';
import { clientErrorHandler } from './http/client-error.ts';
import { registerJsonParser } from './http/json-parser.ts';
import { refineOpenApi } from './http/openapi-schemas.ts';
import { validatorCompiler } from './http/validation.ts';
import { SignedLinks } from './outputs/output-links.ts';
import { authPlugin } from './plugins/auth.ts';
import { corsPlugin } from './plugins/cors.ts';
import { errorHandlerPlugin, sendError } from './plugins/error-handler.ts';
import { idParamsPlugin } from './plugins/id-params.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { requestIdPlugin } from './plugins/request-id.ts';
import { routeTablePlugin } from './plugins/route-table.ts';
import { unusedConnectionsPlugin } from './plugins/unused-connections.ts';
import { PreviewStore } from './previews/preview-store.ts';
import type { RateLimiter } from './rate-limit/limiter.ts';
import { MemoryRateLimiter } from './rate-limit/memory-limiter.ts';
import { RedisRateLimiter } from './rate-limit/redis-limiter.ts';
import { ROUTE_MODULES } from './route-modules.ts';

export interface BuildAppOptions {
  config: ApiConfig;
  /** Opened (and closed) by the caller: the app only uses it. */
  db: Database;
  /** Default: Redis when config.redisUrl is set, in-process otherwise (closed with the app). */
  limiter?: RateLimiter;
  /** Default: the queue-only executor (renders stay queued for a claimer). */
  executor?: ExecutorPort;
  logger?: Logger;
  now?: () => Date;
  /** Default: local disk under DATA_DIR/objects. */
  objects?: ObjectStore;
  /** Default: links signed with a secret made for this app (serve passes the kept one). */
  links?: SignedLinks;
  /** Default: previews under DATA_DIR/tmp/previews, prepared by a worker process with this environment. */
  previews?: PreviewStore;
  /** Default: a registry of its own (createApiMetrics); serve shares one with the pipeline. */
  metrics?: ApiMetrics;
}

/** The API's metrics on `registry` (default: a new one), their gauges read from `db` at scrape time. */
export function createApiMetrics(db: Database, registry = createRegistry()): ApiMetrics {
  return new ApiMetrics(registry, {
    rendersByStatus: () => countByStatus({ db }),
    outboxBacklog: () => pendingCount(db.sql),
  });
}

/** Counts each accepted render once: create-render hands every committed render to submit once. */
function countingExecutor(executor: ExecutorPort, metrics: ApiMetrics): ExecutorPort {
  return {
    submit: (render) => {
      metrics.rendersCreated.inc();
      return executor.submit(render);
    },
    cancel: (render) => executor.cancel(render),
    close: () => executor.close(),
  };
}

const API_VERSION = '1.0.0';

/**
 * How long a preview's files stay after it was last asked for, and how many previews (and bytes of
 * their files) a process keeps: a 60 s 1080p movie's textures are tens of MiB, and the chart gives
 * the API's /tmp 2 GiB (api.tmpSizeLimit), shared with upload staging.
 */
const PREVIEW_TTL_MS = 30 * 60_000;
const PREVIEWS_KEPT = 100;
const PREVIEW_BYTES_KEPT = 1024 ** 3;

/**
 * The previews of this process, prepared by a worker process of its own with the environment's
 * worker settings, this service's asset links trusted as the in-process executor trusts them.
 */
function defaultPreviews(config: ApiConfig, links: SignedLinks, logger: Logger | undefined): PreviewStore {
  return new PreviewStore({
    logger: logger?.child({ component: 'previews' }),
    dir: path.join(config.dataDir, 'tmp', 'previews'),
    workerEnv: {
      ...process.env,
      TRUSTED_URL_PREFIXES: [process.env.TRUSTED_URL_PREFIXES, links.assetPrefix].filter(Boolean).join(','),
    },
    ttlMs: PREVIEW_TTL_MS,
    maxEntries: PREVIEWS_KEPT,
    maxBytes: PREVIEW_BYTES_KEPT,
  });
}

/**
 * The API, assembled from plugins in a fixed order: config, db, error handler, request id,
 * OpenAPI, rate limiter, auth, rate limit, idempotency, executor, route table (404/405), id
 * check, then the route modules.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    genReqId: () => newId('req'),
    // Never trust a client-chosen request id: it would end up in our logs as if we made it.
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    // Long enough that an over-long id reaches the id check (a 404 like any unknown id); beyond
    // it the router's own error still gets the envelope (frameworkErrors).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: (err, request, reply) => sendError(config.publicBaseUrl, err, request, reply),
    // What Node's HTTP parser refuses (oversized headers, bad request line) gets the envelope too.
    clientErrorHandler: clientErrorHandler(config.publicBaseUrl),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  registerJsonParser(app as unknown as FastifyInstance);

  const ownLimiter = !options.limiter;
  const limiter =
    options.limiter ?? (config.redisUrl ? new RedisRateLimiter(config.redisUrl) : new MemoryRateLimiter());

  await app.register(
    fp(
      async (a) => {
        a.decorate('config', config);
        a.decorate('plans', config.plans);
        a.decorate('now', options.now ?? (() => new Date()));
        a.decorate('readiness', { draining: false });
      },
      { name: 'config' },
    ),
  );
  await app.register(
    fp(
      async (a) => {
        a.decorate('db', db);
      },
      { name: 'db' },
    ),
  );
  const metrics = options.metrics ?? createApiMetrics(db);
  app.decorate('metrics', metrics);
  // Every response, 404s included: one histogram observation, labelled by the route pattern.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime);
    done();
  });
  await app.register(errorHandlerPlugin);
  await app.register(requestIdPlugin);
  await app.register(unusedConnectionsPlugin);
  await app.register(swagger, {
    // The route schemas stay permissive where the movie library validates (path-precise findings);
    // the document describes what is really accepted (api/http/openapi-schemas.ts).
    transformObject: (doc) => refineOpenApi((doc as { openapiObject: Record<string, unknown> }).openapiObject) as never,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Framewright video rendering API',
        version: API_VERSION,
        description:
          'JSON movie documents in, MP4 out. Movie validation findings carry paths relative to the movie document (e.g. `scenes[2].elements[0].src`); request-field findings carry paths relative to the request body, query (`page_size`) or headers (`headers.idempotency-key`).',
      },
      servers: [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'fw_live_… or fw_test_… key' } },
      },
      security: [{ bearer: [] }],
    },
  });
  await app.register(
    fp(
      async (a) => {
        a.decorate('limiter', limiter);
        if (ownLimiter) a.addHook('onClose', async () => limiter.close());
      },
      { name: 'rate-limiter' },
    ),
  );
  await app.register(corsPlugin);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(idempotencyPlugin);
  const executor = options.executor ?? new QueueOnlyExecutor();
  await app.register(
    fp(
      async (a) => {
        a.decorate('executor', countingExecutor(executor, metrics));
        a.decorate('objects', options.objects ?? new LocalObjectStore(path.join(config.dataDir, 'objects')));
        const links = options.links ?? new SignedLinks(randomBytes(32), config.publicBaseUrl);
        a.decorate('links', links);
        const previews = options.previews ?? defaultPreviews(config, links, options.logger);
        a.decorate('previews', previews);
        a.addHook('onClose', () => previews.close());
      },
      { name: 'executor' },
    ),
  );

  await app.register(routeTablePlugin);
  await app.register(idParamsPlugin);
  for (const route of ROUTE_MODULES) {
    const mod = await route.load();
    await app.register(mod.default, { prefix: route.prefix });
  }
  await app.ready();
  return app as unknown as FastifyInstance;
}
