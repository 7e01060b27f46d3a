import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { SegmentSettings } from './stages.ts';

/**
 * How the operator shapes each worker Job, read once from the environment at start-up (the Helm
 * chart sets these). JSON-valued variables carry Kubernetes fields verbatim.
 */
const OperatorEnvSchema = Type.Object({
  WORKER_IMAGE: Type.Optional(Type.String({ minLength: 1, description: 'Image of the worker pods.' })),
  WORKER_IMAGE_PULL_POLICY: Type.Optional(
    Type.Union([Type.Literal('Always'), Type.Literal('IfNotPresent'), Type.Literal('Never')]),
  ),
  WORKER_SERVICE_ACCOUNT: Type.Optional(
    Type.String({ minLength: 1, description: 'ServiceAccount of worker pods (get renders, patch renders/status).' }),
  ),
  WORKER_GPUS: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,2}$', description: 'nvidia.com/gpu per worker pod; 0 renders on CPU.' }),
  ),
  WORKER_ALLOW_SOFTWARE_DRAWING: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description:
        'With WORKER_GPUS > 0: workers draw on a software renderer when they find one instead of failing with GPU_DRAWING_UNAVAILABLE.',
    }),
  ),
  WORKER_NODE_SELECTOR: Type.Optional(Type.String({ description: 'JSON object: the pods nodeSelector.' })),
  WORKER_TOLERATIONS: Type.Optional(Type.String({ description: 'JSON array of tolerations.' })),
  WORKER_RESOURCES: Type.Optional(Type.String({ description: 'JSON ResourceRequirements of the container.' })),
  WORKER_RUNTIME_CLASS: Type.Optional(Type.String({ minLength: 1 })),
  WORKER_PRIORITY_CLASS: Type.Optional(Type.String({ minLength: 1 })),
  WORKER_ENV_SECRET: Type.Optional(
    Type.String({ minLength: 1, description: 'Secret whose keys become the worker env (S3 credentials).' }),
  ),
  WORKER_ENV_CONFIGMAP: Type.Optional(
    Type.String({ minLength: 1, description: 'ConfigMap whose keys become the worker env (S3 bucket, endpoint).' }),
  ),
  KUEUE_QUEUE_NAME: Type.Optional(Type.String({ minLength: 1, description: 'Kueue LocalQueue of worker Jobs.' })),
  RENDER_MAX_ATTEMPTS: Type.Optional(
    Type.String({ pattern: '^[1-9]$', description: 'Attempts per render: a crash is retried until this many.' }),
  ),
  JOB_TTL_SECONDS: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,7}$',
      description: 'ttlSecondsAfterFinished of a Job, set once its outcome is recorded in Postgres.',
    }),
  ),
  RENDER_TTL_SECONDS: Type.Optional(
    Type.String({
      pattern: '^([0-9]{1,9})?$',
      description:
        'Seconds a finished Render stays in the cluster before the operator deletes it (its render stays in Postgres); empty: kept.',
    }),
  ),
  RENDER_MAX_SEGMENTS: Type.Optional(
    Type.String({
      pattern: '^([1-9]|[1-5][0-9]|6[0-4])$',
      description: 'The most pods one render is spread over (an Indexed Job); 1 renders every movie on one pod.',
    }),
  ),
  RENDER_SEGMENT_SECONDS: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,4}$',
      description: 'The least movie, in seconds, a segment pod gets: shorter movies stay on one pod.',
    }),
  ),
  OPERATOR_WORKERS: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'Reconcile workers.' })),
  LEADER_ELECTION: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  LEASE_DURATION_SEC: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$' })),
  RENEW_DEADLINE_SEC: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$' })),
  RETRY_PERIOD_SEC: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$' })),
  POD_NAME: Type.Optional(Type.String({ minLength: 1 })),
  OPERATOR_METRICS_PORT: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$' })),
});
type OperatorEnv = Static<typeof OperatorEnvSchema>;

export interface WorkerJobSettings {
  namespace: string;
  image: string;
  imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never';
  serviceAccount: string;
  gpus: number;
  /** GPU pods draw on a software renderer rather than fail (WORKER_ALLOW_SOFTWARE_DRAWING). */
  allowSoftwareDrawing: boolean;
  nodeSelector: Record<string, string>;
  tolerations: Record<string, unknown>[];
  resources: Record<string, unknown>;
  runtimeClassName: string | undefined;
  priorityClassName: string | undefined;
  envSecret: string | undefined;
  envConfigMap: string | undefined;
  kueueQueueName: string | undefined;
  maxAttempts: number;
  ttlSecondsAfterFinished: number;
  segments: SegmentSettings;
}

export interface OperatorSettings {
  job: WorkerJobSettings;
  /** Seconds a finished Render is kept (RENDER_TTL_SECONDS, 7 days); undefined: for ever. */
  renderTtlSec: number | undefined;
  workers: number;
  leaderElection: { enabled: boolean; leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number };
  identity: string;
  metricsPort: number | undefined;
}

function json<T>(name: string, value: string | undefined, fallback: T, check: (v: unknown) => boolean): T {
  if (value === undefined || value === '') return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(`${name} must be JSON; got ${JSON.stringify(value.slice(0, 80))}`);
  }
  if (!check(parsed)) throw new Error(`${name} has the wrong shape: ${value.slice(0, 80)}`);
  return parsed as T;
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates and converts; a bad value throws a message naming the variable. */
export function operatorSettings(env: NodeJS.ProcessEnv): OperatorSettings {
  const values = Object.fromEntries(
    Object.keys(OperatorEnvSchema.properties).flatMap((k) => (env[k] === undefined ? [] : [[k, env[k]]])),
  );
  const first = Value.Errors(OperatorEnvSchema, values).First();
  if (first) throw new Error(`${first.path.slice(1)}: ${first.message} (got ${JSON.stringify(first.value)})`);
  const v = values as OperatorEnv;
  const sec = (s: string | undefined, d: number) => Number(s ?? d) * 1000;
  return {
    job: {
      // KUBE_NAMESPACE is shared with the API: EnvSchema (lib/config.ts) validates it.
      namespace: env.KUBE_NAMESPACE ?? 'default',
      image: v.WORKER_IMAGE ?? 'framewright-worker:latest',
      imagePullPolicy: v.WORKER_IMAGE_PULL_POLICY ?? 'IfNotPresent',
      serviceAccount: v.WORKER_SERVICE_ACCOUNT ?? 'framewright-worker',
      gpus: Number(v.WORKER_GPUS ?? 1),
      allowSoftwareDrawing: v.WORKER_ALLOW_SOFTWARE_DRAWING === 'true',
      nodeSelector: json('WORKER_NODE_SELECTOR', v.WORKER_NODE_SELECTOR, {}, isObject),
      tolerations: json('WORKER_TOLERATIONS', v.WORKER_TOLERATIONS, [], (t) => Array.isArray(t) && t.every(isObject)),
      resources: json('WORKER_RESOURCES', v.WORKER_RESOURCES, {}, isObject),
      runtimeClassName: v.WORKER_RUNTIME_CLASS,
      priorityClassName: v.WORKER_PRIORITY_CLASS,
      envSecret: v.WORKER_ENV_SECRET,
      envConfigMap: v.WORKER_ENV_CONFIGMAP,
      kueueQueueName: v.KUEUE_QUEUE_NAME,
      maxAttempts: Number(v.RENDER_MAX_ATTEMPTS ?? 2),
      ttlSecondsAfterFinished: Number(v.JOB_TTL_SECONDS ?? 3600),
      segments: {
        maxSegments: Number(v.RENDER_MAX_SEGMENTS ?? 8),
        minSegmentSec: Number(v.RENDER_SEGMENT_SECONDS ?? 60),
      },
    },
    renderTtlSec: v.RENDER_TTL_SECONDS === '' ? undefined : Number(v.RENDER_TTL_SECONDS ?? 7 * 86400),
    workers: Number(v.OPERATOR_WORKERS ?? 64),
    leaderElection: {
      enabled: (v.LEADER_ELECTION ?? 'true') === 'true',
      leaseDurationMs: sec(v.LEASE_DURATION_SEC, 15),
      renewDeadlineMs: sec(v.RENEW_DEADLINE_SEC, 10),
      retryPeriodMs: sec(v.RETRY_PERIOD_SEC, 2),
    },
    identity: v.POD_NAME ?? `framewright-operator-${process.pid}`,
    metricsPort: v.OPERATOR_METRICS_PORT ? Number(v.OPERATOR_METRICS_PORT) : undefined,
  };
}
