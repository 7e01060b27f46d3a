import { type Env, envBool } from '../lib/config.ts';
import { DEFAULT_POOL_SIZE } from '../store/database.ts';
import type { Plan } from '../store/types.ts';
import { type PlanRules, parsePlanNumbers, planTable } from './billing/plans.ts';
import { type ScriptsConfig, scriptsConfig } from './scripts/scripts-config.ts';

/** Everything the API reads from the environment, resolved once and passed to `buildApp`. */
export interface ApiConfig {
  port: number;
  host: string;
  /** METRICS_PORT: the Prometheus listener's port; undefined: none. */
  metricsPort: number | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections to PostgreSQL (DATABASE_POOL_SIZE); the embedded database always uses one. */
  databasePoolSize: number;
  redisUrl: string | undefined;
  /** Base of docsUrl and outputUrl, without /v1 and without a trailing slash. */
  publicBaseUrl: string;
  plans: Record<Plan, PlanRules>;
  /** Failed authentications per client address per minute before 429. */
  authFailuresPerMinute: number;
  /** New previews one account may prepare per minute (api/previews/routes.ts). */
  previewsPerMinute: number;
  /** Origins whose pages may call the routes marked `cors` (api/plugins/cors.ts); '*' for any, [] for none. */
  corsAllowedOrigins: readonly string[];
  /** Verified keys are cached this long (0 = off); revocations and plan changes evict via NOTIFY on PostgreSQL. */
  authCacheTtlMs: number;
  /** GET /v1/renders/{id} answers from a cache evicted on every change; this bounds a lost eviction (0 = off). */
  renderCacheTtlMs: number;
  /** SHUTDOWN_DELAY_SEC in ms: after SIGTERM, not ready but still serving for this long. */
  shutdownDelayMs: number;
  /** JSON body limit in bytes (1 MiB). */
  bodyLimit: number;
  logLevel: string;
  /** ffprobe binary, used to check uploaded audio and video (FFPROBE_PATH). */
  ffprobePath: string;
  /** Largest asset upload in bytes (ASSET_MAX_BYTES, 100 MiB); POST /v1/assets streams up to it. */
  assetMaxBytes: number;
  /** ALLOW_PRIVATE_URLS: a webhook_url may then name a private or loopback host. */
  allowPrivateUrls: boolean;
  /** Script generation: the model (null: not configured), the budget. */
  scripts: ScriptsConfig;
}

const BODY_LIMIT = 1024 * 1024;

export function apiConfig(values: Env, overrides: Partial<ApiConfig> = {}): ApiConfig {
  const port = Number(values.PORT ?? '8080');
  const host = values.HOST ?? '0.0.0.0';
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    port,
    host,
    metricsPort: values.METRICS_PORT ? Number(values.METRICS_PORT) : undefined,
    dataDir: values.DATA_DIR ?? './data',
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: Number(values.DATABASE_POOL_SIZE ?? DEFAULT_POOL_SIZE),
    redisUrl: values.REDIS_URL,
    publicBaseUrl: (values.PUBLIC_BASE_URL ?? `http://${shownHost}:${port}`).replace(/\/+$/, ''),
    plans: planTable({
      concurrency: parsePlanNumbers(values.PLAN_CONCURRENCY),
      rateLimitPerMinute: parsePlanNumbers(values.PLAN_RATE_LIMITS),
    }),
    authFailuresPerMinute: Number(values.AUTH_FAILURES_PER_MINUTE ?? '30'),
    previewsPerMinute: Number(values.PREVIEW_RATE_LIMIT ?? '20'),
    corsAllowedOrigins: (values.CORS_ALLOWED_ORIGINS ?? '').split(',').filter(Boolean),
    authCacheTtlMs: Number(values.AUTH_CACHE_TTL_MS ?? '60000'),
    renderCacheTtlMs: Number(values.RENDER_CACHE_TTL_MS ?? '60000'),
    shutdownDelayMs: Number(values.SHUTDOWN_DELAY_SEC ?? '0') * 1000,
    bodyLimit: BODY_LIMIT,
    logLevel: values.LOG_LEVEL ?? 'info',
    ffprobePath: values.FFPROBE_PATH ?? 'ffprobe',
    assetMaxBytes: Number(values.ASSET_MAX_BYTES ?? '104857600'),
    allowPrivateUrls: envBool(values.ALLOW_PRIVATE_URLS),
    scripts: scriptsConfig(values),
    ...overrides,
  };
}
