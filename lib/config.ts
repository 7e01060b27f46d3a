import { FormatRegistry, type Static, type TObject, type TProperties, Type } from '@sinclair/typebox';
import { Value, ValueErrorType } from '@sinclair/typebox/value';
import { trustedPrefixesProblem } from './net/trusted-prefixes.ts';

/** Checks beyond a pattern, run at start-up like every variable; each says what is wrong. */
const formats: Record<string, (value: string) => string | undefined> = {
  'trusted-url-prefixes': trustedPrefixesProblem,
};
for (const [name, problem] of Object.entries(formats)) FormatRegistry.Set(name, (v) => problem(v) === undefined);

/** Where a configuration value came from: reported at start-up so operators can see overrides. */
export type ConfigSource = 'cli' | 'env' | 'default';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

/**
 * Every environment variable the product reads, validated once at start-up. Strings stay strings
 * here; `loadConfig` converts numbers and booleans after validation so messages name the variable.
 */
export const EnvSchema = Type.Object({
  PORT: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$', default: '8080', description: 'HTTP port of the API.' })),
  HOST: Type.Optional(Type.String({ minLength: 1, default: '0.0.0.0', description: 'Interface the API binds.' })),
  METRICS_PORT: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,5}$',
      description: "Port of the API's Prometheus listener (GET /metrics, apart from PORT); unset: no listener.",
    }),
  ),
  DATA_DIR: Type.Optional(
    Type.String({
      minLength: 1,
      default: './data',
      description: 'Embedded database, local objects and scratch space.',
    }),
  ),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description: 'PostgreSQL URL; unset means the embedded PGlite under DATA_DIR.',
    }),
  ),
  DATABASE_POOL_SIZE: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,2}$',
      default: '4',
      description:
        'Connections to PostgreSQL per process. Queries are pipelined over them, so a few keep a server busy.',
    }),
  ),
  REDIS_URL: Type.Optional(
    Type.String({ pattern: '^rediss?://', description: 'Redis URL for rate limits; unset means in-process limits.' }),
  ),
  PUBLIC_BASE_URL: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'External base URL (no /v1), used in outputUrl and docsUrl.' }),
  ),
  LOG_LEVEL: Type.Optional(
    Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
      { default: 'info' },
    ),
  ),
  RENDER_CONCURRENCY: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,3}$',
      description: 'Worker processes of the in-process executor; default one per core.',
    }),
  ),
  RENDER_EXECUTOR: Type.Optional(
    Type.Union([Type.Literal('in-process'), Type.Literal('kubernetes')], {
      default: 'in-process',
      description:
        'Where renders run: in-process (a pool of worker processes beside the API) or kubernetes (the API creates a Render resource; the operator runs it as a Job).',
    }),
  ),
  KUBE_NAMESPACE: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
      maxLength: 63,
      description: 'Namespace of the Render resources (RENDER_EXECUTOR=kubernetes) and of the operator.',
    }),
  ),
  ALLOW_PRIVATE_URLS: Type.Optional(Bool),
  S3_BUCKET: Type.Optional(Type.String({ minLength: 1 })),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  S3_REGION: Type.Optional(Type.String({ minLength: 1, default: 'us-east-1' })),
  S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  S3_FORCE_PATH_STYLE: Type.Optional(Bool),
  S3_RETRY_SEC: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}$',
      default: '120',
      description:
        "Seconds a call to S3 made in the background (an upload of an output, a segment or a work object; a worker's read; a sweeper's delete) retries while the store is unreachable before it fails with STORAGE_UNAVAILABLE (a render so failed is refunded). Calls a client waits on retry for 5 s.",
    }),
  ),
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  OPENAI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  SCRIPT_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  TRANSCRIBE_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'OpenAI-protocol endpoint (ending in /v1) that transcribes the sound of subtitles `from`; default OPENAI_BASE_URL, else OpenAI.',
    }),
  ),
  TRANSCRIBE_MODEL: Type.Optional(
    Type.String({
      minLength: 1,
      default: 'whisper-1',
      description: 'Transcription model for subtitles `from` (one that gives word timestamps).',
    }),
  ),
  SCRIPT_BUDGET_SEC: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}$',
      default: '90',
      description: 'Seconds one script generation may take, drafts, retries and backoff included.',
    }),
  ),
  DRAWING_DEVICE: Type.Optional(
    Type.Union([Type.Literal('any'), Type.Literal('gpu')], {
      default: 'any',
      description:
        'gpu: a worker that finds a software renderer fails the render with GPU_DRAWING_UNAVAILABLE instead of drawing on the CPU (the operator sets it on GPU Jobs unless worker.gpu.allowSoftwareDrawing); any: draw on whatever GL there is.',
    }),
  ),
  FFMPEG_PATH: Type.Optional(Type.String({ minLength: 1, default: 'ffmpeg' })),
  FFPROBE_PATH: Type.Optional(Type.String({ minLength: 1, default: 'ffprobe' })),
  ASSET_MAX_BYTES: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,11}$',
      default: '104857600',
      description:
        'Largest asset upload (POST /v1/assets) in bytes; 100 MiB by default. Uploads are streamed, never held in memory.',
    }),
  ),
  RENDER_LEASE_SEC: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}$',
      default: '30',
      description: 'Lease of a claimed render: a worker silent this long (a killed server) is retried or failed.',
    }),
  ),
  WEBHOOK_RETENTION_DAYS: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,3}$',
      default: '7',
      description:
        'Days a finished webhook delivery (delivered or given up, with its last status and error) is kept in the outbox before the retention sweeper deletes it.',
    }),
  ),
  TRUSTED_URL_PREFIXES: Type.Optional(
    Type.String({
      pattern: '^https?://[^,]+(,https?://[^,]+)*$',
      format: 'trusted-url-prefixes',
      description:
        'Comma-separated URL prefixes the worker fetches even when private addresses are refused (the API sets its own asset URLs). Matched on scheme, host, port and whole path segments; no user info, query or fragment.',
    }),
  ),
  SIGNING_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'Secret for signed download URLs; generated and kept under DATA_DIR when unset.',
    }),
  ),
  PLAN_CONCURRENCY: Type.Optional(
    Type.String({
      pattern: '^(trial|starter|pro|studio)=[0-9]{1,5}(,(trial|starter|pro|studio)=[0-9]{1,5})*$',
      description:
        'Concurrent-render caps per plan, e.g. "trial=1,starter=3,pro=10,studio=25" (unnamed plans keep theirs).',
    }),
  ),
  PLAN_RATE_LIMITS: Type.Optional(
    Type.String({
      pattern: '^(trial|starter|pro|studio)=[0-9]{1,6}(,(trial|starter|pro|studio)=[0-9]{1,6})*$',
      description: 'Requests per minute per key by plan, e.g. "trial=60,starter=300,pro=600,studio=1200".',
    }),
  ),
  PREVIEW_RATE_LIMIT: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,6}$',
      default: '20',
      description:
        'New live previews (POST /v1/previews that are not answered from the cache) one account may prepare per minute, whatever its plan.',
    }),
  ),
  CORS_ALLOWED_ORIGINS: Type.Optional(
    Type.String({
      pattern: '^(\\*|https?://[^/,\\s]+(,https?://[^/,\\s]+)*)$',
      description:
        'Comma-separated origins (scheme://host[:port]) whose pages may call the preview routes (POST /v1/previews, its files) from the browser player, or * for any. Unset: none (the dashboard is same-origin).',
    }),
  ),
  AUTH_FAILURES_PER_MINUTE: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,6}$',
      default: '30',
      description: 'Failed authentications allowed per client address per minute before 429.',
    }),
  ),
  AUTH_CACHE_TTL_MS: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,6}$',
      default: '60000',
      description:
        'How long a verified API key is cached in the API process (0 disables). Revocations and plan changes evict at once on PostgreSQL (NOTIFY; a reconnect of the listener clears the cache); this bounds a lost notification.',
    }),
  ),
  RENDER_CACHE_TTL_MS: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,6}$',
      default: '60000',
      description:
        'How long GET /v1/renders/{id} may answer from the API process cache (0 disables). Every change to a render evicts it at once (a trigger NOTIFYs on PostgreSQL); the time only bounds a notification lost to a dropped connection.',
    }),
  ),
  SHUTDOWN_DELAY_SEC: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,3}$',
      default: '0',
      description:
        'After SIGTERM, how long serve keeps answering (with /readyz at 503) before it stops taking connections: the time a load balancer needs to take it out of rotation. The Helm chart sets 5.',
    }),
  ),
});

export type Env = Static<typeof EnvSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates `env` against a schema (by default the whole product's) and returns the typed values
 * with their sources. A bad value throws a ConfigError naming the variable and what is allowed.
 */
export function readEnv<T extends TProperties>(
  schema: TObject<T>,
  env: NodeJS.ProcessEnv = process.env,
): { values: Static<TObject<T>>; sources: Record<string, ConfigSource> } {
  const picked: Record<string, string> = {};
  const sources: Record<string, ConfigSource> = {};
  for (const key of Object.keys(schema.properties)) {
    const raw = env[key];
    if (raw !== undefined && raw !== '') {
      picked[key] = raw;
      sources[key] = 'env';
    } else if ((schema.properties[key] as { default?: unknown }).default !== undefined) {
      sources[key] = 'default';
    }
  }
  const errors = [...Value.Errors(schema, picked)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const name = e.path.replace(/^\//, '');
      const shown = typeof e.value === 'string' ? JSON.stringify(e.value) : String(e.value);
      const format = (e.schema as { format?: string }).format;
      const why =
        e.type === ValueErrorType.StringFormat && format && typeof e.value === 'string'
          ? formats[format]?.(e.value)
          : undefined;
      return `${name}=${shown}: ${why ?? e.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const values = Value.Default(schema, picked) as Static<TObject<T>>;
  return { values, sources };
}

export function envBool(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}
