import { parseArgs } from 'node:util';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { createLogger, logProcessFailures } from '../../lib/logger.ts';
import { startMetricsServer } from '../../lib/metrics/metrics-server.ts';
import { untilShutdown } from '../../lib/shutdown.ts';
import { countAccounts } from '../../store/accounts-repo.ts';
import { openDatabaseWhenUp } from '../../store/database.ts';
import { buildApp, createApiMetrics } from '../app.ts';
import { createAccountWithKey } from '../auth/provision.ts';
import { apiConfig } from '../config.ts';
import { createPipeline, pipelineConfig } from '../pipeline/pipeline.ts';

/**
 * `framewright serve`: config read once from the environment, database opened (and migrated),
 * then the app. A first start on an empty database creates a trial account and prints its key
 * once. SIGTERM/SIGINT stop accepting, finish in-flight requests, then close the database.
 */
export async function main(argv: string[]): Promise<number> {
  parseArgs({ args: argv, options: {}, strict: true });
  const { values } = readEnv(EnvSchema);
  const config = apiConfig(values);
  const logger = createLogger({ level: config.logLevel, name: 'api' });
  logProcessFailures(logger);
  // A database that is not up yet (a cluster starting, a failover) is waited for, not a crash.
  const db = await openDatabaseWhenUp({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger,
    max: config.databasePoolSize,
    // The embedded database: the CLI reaches it through this process while it runs.
    share: true,
  });
  if ((await countAccounts(db.sql)) === 0) {
    const { account, key } = await createAccountWithKey(db, { plan: 'trial', name: 'First account' });
    process.stdout.write(
      `\nCreated trial account ${account.id} with ${account.creditBalance} credits.\n` +
        `API key (shown once, store it now): ${key.secret}\n\n` +
        `  curl -H 'Authorization: Bearer ${key.secret}' ${config.publicBaseUrl}/v1/usage\n\n`,
    );
  }
  // One registry for the app, the executor and the webhook dispatcher of this process.
  const metrics = createApiMetrics(db);
  const pipeline = await createPipeline({ api: config, config: pipelineConfig(values), db, logger, metrics });
  const app = await buildApp({
    config,
    db,
    logger,
    executor: pipeline.executor,
    objects: pipeline.objects,
    links: pipeline.links,
    metrics,
  });
  // Its own port, so an Ingress in front of PORT never exposes /metrics.
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await startMetricsServer({ registry: metrics.registry, port: config.metricsPort, host: config.host });
  await app.listen({ port: config.port, host: config.host });
  pipeline.start();

  // Not ready at once (load balancers take the pod out of rotation) while still answering for
  // SHUTDOWN_DELAY_SEC; then stop taking requests, drain the renders (finish or hand back), and
  // close the database.
  return untilShutdown(logger, async () => {
    app.readiness.draining = true;
    if (config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    await app.close();
    await pipeline.close();
    // Last: the drain can be watched until the end.
    await metricsServer?.close();
    await db.close();
  });
}
