import { type Env, EnvSchema, readEnv } from '../../lib/config.ts';
import { createLogger, type Logger, logProcessFailures } from '../../lib/logger.ts';
import { startMetricsServer } from '../../lib/metrics/metrics-server.ts';
import { exitOnStartupFailure, untilShutdown } from '../../lib/shutdown.ts';
import { countAccounts } from '../../store/accounts-repo.ts';
import { type Database, openDatabaseWhenUp } from '../../store/database.ts';
import { buildApp, createApiMetrics } from '../app.ts';
import { createAccountWithKey } from '../auth/provision.ts';
import { type ApiConfig, apiConfig } from '../config.ts';
import { createPipeline, pipelineConfig } from '../execution/pipeline.ts';
import { tuneV8ForServing } from './v8-serving.ts';

/**
 * `framewright serve`: config read once from the environment, database opened (and migrated),
 * then the app. A first start on an empty embedded database creates a trial account and prints
 * its key once (not with DATABASE_URL: firstAccount). SIGTERM/SIGINT stop accepting, finish in-flight requests, then close the database.
 */
export async function main(): Promise<number> {
  tuneV8ForServing();
  // Until the configuration is read, failures are logged at the default level.
  let logger: Logger = createLogger({ name: 'api' });
  // What start-up opened, closed (in reverse) when a later step fails.
  const opened: (() => Promise<void>)[] = [];
  try {
    const { values } = readEnv(EnvSchema);
    const config = apiConfig(values);
    logger = createLogger({ level: config.logLevel, name: 'api' });
    logProcessFailures(logger);
    return await start(values, config, logger, opened);
  } catch (err) {
    // A port taken, a setting refused: one JSON line and exit 1 at once, not a process kept
    // alive by its database pool until a startup probe gives up.
    return exitOnStartupFailure(logger, err, async () => {
      for (const close of opened.reverse()) await close().catch(() => {});
    });
  }
}

async function start(values: Env, config: ApiConfig, logger: Logger, opened: (() => Promise<void>)[]): Promise<number> {
  // A database that is not up yet (a cluster starting, a failover) is waited for, not a crash.
  const db = await openDatabaseWhenUp({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger,
    max: config.databasePoolSize,
    // The embedded database: the CLI reaches it through this process while it runs.
    share: true,
  });
  opened.push(() => db.close());
  await firstAccount(db, config, logger);
  // One registry for the app, the executor and the webhook dispatcher of this process.
  const metrics = createApiMetrics(db);
  const pipeline = await createPipeline({
    api: config,
    config: pipelineConfig(values, process.env),
    db,
    logger,
    metrics,
  });
  opened.push(() => pipeline.close());
  const app = await buildApp({
    config,
    db,
    logger,
    executor: pipeline.executor,
    objects: pipeline.objects,
    links: pipeline.links,
    metrics,
  });
  opened.push(() => app.close());
  // Its own port, so an Ingress in front of PORT never exposes /metrics.
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await startMetricsServer({ registry: metrics.registry, port: config.metricsPort, host: config.host });
  if (metricsServer) opened.push(() => metricsServer.close());
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

/**
 * An empty database. On the embedded one (`make run`, no DATABASE_URL) a person is at the
 * terminal: a trial account is made and its key shown there once. With DATABASE_URL (a cluster,
 * a deployment) the output goes to log pipelines, where a live key must never go: no account is
 * made, and one JSON line says how to make the first (`framewright accounts create`).
 */
async function firstAccount(db: Database, config: ApiConfig, logger: Logger): Promise<void> {
  if ((await countAccounts(db.sql)) > 0) return;
  if (config.databaseUrl) {
    logger.info(
      'no accounts yet: create the first with `framewright accounts create --plan pro --credits 1000` ' +
        '(in a cluster: kubectl exec deploy/<release>-api -- framewright accounts create ...); its key is shown once',
    );
    return;
  }
  const { account, key } = await createAccountWithKey(db, { plan: 'trial', name: 'First account' });
  process.stdout.write(
    `\nCreated trial account ${account.id} with ${account.creditBalance} credits.\n` +
      `API key (shown once, store it now): ${key.secret}\n\n` +
      `  curl -H 'Authorization: Bearer ${key.secret}' ${config.publicBaseUrl}/v1/usage\n\n`,
  );
}
