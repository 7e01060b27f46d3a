import { availableParallelism, tmpdir } from 'node:os';
import { type Env, envBool } from '../../lib/config.ts';
import type { KubeAccess } from '../../lib/kube/access.ts';
import { loadKubeConfig, RendersClient } from '../../lib/kube/client.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ApiMetrics } from '../../lib/metrics/api-metrics.ts';
import type { DrawingReport } from '../../lib/metrics/drawing-metrics.ts';
import { objectStore, s3OptionsFromEnv } from '../../lib/storage/from-env.ts';
import type { ObjectStore } from '../../lib/storage/object-store.ts';
import type { S3StoreOptions } from '../../lib/storage/s3-store.ts';
import type { Database } from '../../store/database.ts';
import type { ApiConfig } from '../config.ts';
import { loadSigningSecret, SignedLinks } from '../outputs/output-links.ts';
import type { ExecutorPort } from './executor.ts';
import { InProcessExecutor } from './in-process-executor.ts';
import { KubernetesExecutor } from './kubernetes-executor.ts';
import { DEFAULT_WEBHOOK_RETENTION_DAYS, sweepExpiredOutputs, sweepRenderWork, sweepRows } from './output-sweeper.ts';
import { scratchDirs, sweepScratch } from './scratch-sweeper.ts';
import { WebhookDispatcher } from './webhook-dispatcher.ts';

/** What the pipeline reads from the environment, once, beside the API's own config. */
export interface PipelineConfig {
  renderConcurrency: number;
  leaseMs: number;
  /** WEBHOOK_RETENTION_DAYS: how long a finished webhook delivery is kept. */
  webhookRetentionMs: number;
  allowPrivateUrls: boolean;
  signingSecret: string | undefined;
  s3: S3StoreOptions | undefined;
  /** RENDER_EXECUTOR=kubernetes: Renders in this namespace, for the operator to run. */
  kubernetes: { namespace: string; access: KubeAccess } | undefined;
  /** The environment the worker child processes inherit (the in-process executor). */
  workerEnv: NodeJS.ProcessEnv;
}

/**
 * The pipeline's settings from the validated environment (`values`) and the process environment
 * (`env`: what worker children inherit, and where the Kubernetes client finds its credentials).
 * Read once, by the command that starts the pipeline.
 */
export function pipelineConfig(values: Env, env: NodeJS.ProcessEnv): PipelineConfig {
  return {
    renderConcurrency: values.RENDER_CONCURRENCY ? Number(values.RENDER_CONCURRENCY) : availableParallelism(),
    leaseMs: Number(values.RENDER_LEASE_SEC ?? '30') * 1000,
    webhookRetentionMs: Number(values.WEBHOOK_RETENTION_DAYS ?? DEFAULT_WEBHOOK_RETENTION_DAYS) * 86_400_000,
    allowPrivateUrls: envBool(values.ALLOW_PRIVATE_URLS),
    signingSecret: values.SIGNING_SECRET,
    s3: s3OptionsFromEnv(values),
    kubernetes:
      values.RENDER_EXECUTOR === 'kubernetes'
        ? { namespace: values.KUBE_NAMESPACE ?? 'default', access: loadKubeConfig(env) }
        : undefined,
    workerEnv: env,
  };
}

export interface Pipeline {
  objects: ObjectStore;
  links: SignedLinks;
  /** Where accepted renders go: the in-process pool, or Render resources (RENDER_EXECUTOR). */
  executor: ExecutorPort & { start(): void };
  /** The in-process pool when it is the executor (benchmarks read its stats). */
  inProcess: InProcessExecutor | undefined;
  dispatcher: WebhookDispatcher;
  /** Starts claiming renders, delivering webhooks and sweeping expired outputs. */
  start(): void;
  /** Drains the executor, then stops the dispatcher and the sweeper. */
  close(): Promise<void>;
}

function countAttempt(metrics: ApiMetrics) {
  return (outcome: string) => metrics.webhookDeliveries.inc({ outcome });
}

/**
 * The render pipeline of one machine: object storage (local disk or S3), signed links, the
 * in-process executor, the webhook dispatcher and the retention sweeper.
 */
export async function createPipeline(deps: {
  api: ApiConfig;
  config: PipelineConfig;
  db: Database;
  logger: Logger;
  now?: () => Date;
  /** The API's metrics: the executor's lifecycle transitions and the webhook attempts feed them. */
  metrics?: ApiMetrics;
  /** Overrides for tests: faster polling, shorter leases. */
  executor?: { leaseMs?: number; pollMs?: number; drainMs?: number; workerEnv?: NodeJS.ProcessEnv };
  sweepEveryMs?: number;
}): Promise<Pipeline> {
  const { api, config, db, logger } = deps;
  const workerEnv = deps.executor?.workerEnv ?? config.workerEnv;
  const now = deps.now ?? (() => new Date());
  const objects = objectStore(config.s3, api.dataDir, logger.child({ component: 'objects' }));
  const links = new SignedLinks(await loadSigningSecret(config.signingSecret, api.dataDir), api.publicBaseUrl);
  const kube = config.kubernetes;
  let inProcess: InProcessExecutor | undefined;
  let executor: ExecutorPort & { start(): void };
  if (kube) {
    executor = new KubernetesExecutor({
      db,
      objects,
      renders: new RendersClient(kube.access, kube.namespace),
      namespace: kube.namespace,
      publicBaseUrl: api.publicBaseUrl,
      logger: logger.child({ component: 'executor' }),
      now,
    });
  } else {
    inProcess = new InProcessExecutor({
      db,
      objects,
      publicBaseUrl: api.publicBaseUrl,
      scratchDir: scratchDirs(api.dataDir).renders,
      logger: logger.child({ component: 'executor' }),
      concurrency: config.renderConcurrency,
      leaseMs: config.leaseMs,
      now,
      observer: deps.metrics?.render,
      ...(deps.metrics ? { onDrawing: (r: DrawingReport) => deps.metrics?.drawing.drew(r) } : {}),
      ...deps.executor,
      workerEnv: {
        ...workerEnv,
        // Asset links of this service are fetched even where private URLs are refused.
        TRUSTED_URL_PREFIXES: [workerEnv.TRUSTED_URL_PREFIXES, links.assetPrefix].filter(Boolean).join(','),
      },
    });
    executor = inProcess;
  }
  const dispatcher = new WebhookDispatcher({
    db,
    links,
    logger: logger.child({ component: 'webhooks' }),
    allowPrivate: config.allowPrivateUrls,
    now,
    ...(deps.metrics ? { onAttempt: countAttempt(deps.metrics) } : {}),
  });
  let sweeper: NodeJS.Timeout | undefined;
  let afterLeases: NodeJS.Timeout | undefined;
  const removed = (kind: string, n: number) => {
    if (n > 0) deps.metrics?.retentionRemoved.inc({ kind }, n);
  };
  // What a serve killed outright left in DATA_DIR/tmp (its predecessor's, or another's sharing it).
  const sweepScratchFiles = async () => {
    const pool = inProcess;
    if (!pool) return;
    // The workers' temporary directory: theirs is this process's unless their environment says otherwise.
    const workerTmp = workerEnv.TMPDIR || tmpdir();
    await sweepScratch({ db, dataDir: api.dataDir, workerTmp, running: () => pool.attemptIds(), logger, now }).then(
      (n) => removed('scratch_file', n),
      (err: unknown) => logger.error({ err }, 'sweeping scratch files failed'),
    );
  };
  const sweep = async () => {
    await sweepExpiredOutputs({ db, objects, logger, now }).then(
      (n) => removed('output', n),
      (err: unknown) => logger.error({ err }, 'sweeping expired outputs failed'),
    );
    // Only renders spread over pods leave work objects, and only the cluster runs those.
    if (!inProcess) {
      await sweepRenderWork({ db, objects, logger, now }).then(
        (n) => removed('work_object', n),
        (err: unknown) => logger.error({ err }, 'sweeping render work failed'),
      );
    }
    await sweepScratchFiles();
    await sweepRows({ db, logger, now, webhookRetentionMs: config.webhookRetentionMs }).then(
      (swept) => {
        removed('idempotency_key', swept.idempotencyKeys);
        removed('webhook_delivery', swept.webhookDeliveries);
      },
      (err: unknown) => logger.error({ err }, 'sweeping expired rows failed'),
    );
  };
  return {
    objects,
    links,
    executor,
    inProcess,
    dispatcher,
    start() {
      executor.start();
      dispatcher.start();
      void sweep();
      sweeper = setInterval(sweep, deps.sweepEveryMs ?? 3_600_000);
      sweeper.unref();
      // By then the leases of a killed predecessor's attempts have run out: their files go.
      afterLeases = setTimeout(sweepScratchFiles, 2 * (deps.executor?.leaseMs ?? config.leaseMs));
      afterLeases.unref();
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      if (afterLeases) clearTimeout(afterLeases);
      await executor.close();
      await dispatcher.close();
    },
  };
}
