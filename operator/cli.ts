import { parseArgs } from 'node:util';
import { retryTransient } from '../lib/backoff.ts';
import { EnvSchema, readEnv } from '../lib/config.ts';
import { loadKubeConfig } from '../lib/kube/client.ts';
import { createLogger, logUnhandledRejections } from '../lib/logger.ts';
import { openDatabase } from '../store/database.ts';
import { isDatabaseUnavailable } from '../store/db-unavailable.ts';
import { Operator } from './operator.ts';
import { operatorSettings } from './settings.ts';

/**
 * `framewright operator`: reconciles Render resources into worker Jobs and mirrors them into
 * Postgres. Configuration from the environment (DATABASE_URL, KUBE_NAMESPACE, WORKER_*, ...),
 * the cluster from KUBECONFIG or the pod's service account. SIGTERM stops it and releases the
 * leader Lease, so another replica takes over at once.
 */
export async function main(argv: string[]): Promise<number> {
  parseArgs({ args: argv, options: {}, strict: true });
  const { values } = readEnv(EnvSchema);
  const logger = createLogger({ level: values.LOG_LEVEL ?? 'info', name: 'operator' });
  logUnhandledRejections(logger);
  let settings: ReturnType<typeof operatorSettings>;
  try {
    settings = operatorSettings(process.env);
  } catch (err) {
    process.stderr.write(`framewright operator: ${(err as Error).message}\n`);
    return 2;
  }
  if (!values.DATABASE_URL) {
    process.stderr.write('framewright operator: DATABASE_URL must name the PostgreSQL database the API uses\n');
    return 2;
  }
  const kc = loadKubeConfig(process.env);
  const db = await retryTransient(
    () => openDatabase({ databaseUrl: values.DATABASE_URL, dataDir: values.DATA_DIR ?? './data', logger, max: 4 }),
    {
      isTransient: isDatabaseUnavailable,
      onRetry: (err, attempt, retryInMs) =>
        logger.warn({ err, attempt, retryInMs }, 'the database cannot be reached yet; waiting for it'),
    },
  );
  const operator = new Operator({
    kc,
    db,
    settings,
    publicBaseUrl: values.PUBLIC_BASE_URL ?? 'http://localhost:8080',
    logger,
  });
  operator.start();
  logger.info({ namespace: settings.job.namespace, identity: settings.identity }, 'operator started');
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      operator
        .stop()
        .then(() => db.close())
        .then(
          () => 0,
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            return 1;
          },
        )
        .then((code) => {
          setTimeout(() => process.exit(code), 1_000).unref();
          resolve(code);
        });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
