import { type Env, EnvSchema, readEnv } from '../lib/config.ts';
import { loadKubeConfig } from '../lib/kube/client.ts';
import { createLogger, type Logger, logProcessFailures } from '../lib/logger.ts';
import { startMetricsServer } from '../lib/metrics/metrics-server.ts';
import { exitOnStartupFailure, untilShutdown } from '../lib/shutdown.ts';
import { openDatabaseWhenUp } from '../store/database.ts';
import { Operator } from './operator.ts';
import { operatorSettings } from './settings.ts';

/**
 * `framewright operator`: reconciles Render resources into worker Jobs and mirrors them into
 * Postgres. Configuration from the environment (DATABASE_URL, KUBE_NAMESPACE, WORKER_*, ...),
 * the cluster from KUBECONFIG or the pod's service account. SIGTERM stops it and releases the
 * leader Lease, so another replica takes over at once. It takes no arguments (bin/commands.ts).
 */
export async function main(): Promise<number> {
  // Until LOG_LEVEL is read, failures are logged at the default level.
  let logger: Logger = createLogger({ name: 'operator' });
  const opened: (() => Promise<void>)[] = [];
  try {
    const { values } = readEnv(EnvSchema);
    logger = createLogger({ level: values.LOG_LEVEL ?? 'info', name: 'operator' });
    logProcessFailures(logger);
    return await start(values, logger, opened);
  } catch (err) {
    // A setting refused, the metrics port taken: one JSON line and exit 1 at once, not a process
    // kept alive by its database pool until a startup probe gives up.
    return exitOnStartupFailure(logger, err, async () => {
      for (const close of opened.reverse()) await close().catch(() => {});
    });
  }
}

async function start(values: Env, logger: Logger, opened: (() => Promise<void>)[]): Promise<number> {
  const settings = operatorSettings(process.env);
  if (!values.DATABASE_URL) throw new Error('DATABASE_URL must name the PostgreSQL database the API uses');
  const kc = loadKubeConfig(process.env);
  const db = await openDatabaseWhenUp({
    databaseUrl: values.DATABASE_URL,
    dataDir: values.DATA_DIR ?? './data',
    logger,
    // A pass holds a connection only for its read and its one transaction: a few serve many workers.
    max: Math.max(Number(values.DATABASE_POOL_SIZE ?? 4), Math.ceil(settings.workers / 4)),
  });
  opened.push(() => db.close());
  const operator = new Operator({
    kc,
    db,
    settings,
    publicBaseUrl: values.PUBLIC_BASE_URL ?? 'http://localhost:8080',
    logger,
  });
  // /metrics, /healthz (the process answers) and /readyz (database, synced caches, not stopping).
  const metricsServer =
    settings.metricsPort === undefined
      ? undefined
      : await startMetricsServer({
          registry: operator.registry,
          port: settings.metricsPort,
          healthz: () => true,
          readyz: () => operator.ready(),
        });
  operator.start();
  logger.info({ namespace: settings.job.namespace, identity: settings.identity }, 'operator started');
  // Stop reconciling and release the Lease (another replica takes over at once), then close.
  return untilShutdown(logger, async () => {
    await operator.stop();
    await metricsServer?.close();
    // One line for benchmarks (bench/operator.ts): how much reconciling this process did.
    logger.info({ reconciles: operator.reconciles }, 'operator stopped');
    await db.close();
  });
}
