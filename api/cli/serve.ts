import { parseArgs } from 'node:util';
import { retryTransient } from '../../lib/backoff.ts';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { createLogger, logUnhandledRejections } from '../../lib/logger.ts';
import { countAccounts } from '../../store/accounts-repo.ts';
import { openDatabase } from '../../store/database.ts';
import { isDatabaseUnavailable } from '../../store/db-unavailable.ts';
import { buildApp } from '../app.ts';
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
  logUnhandledRejections(logger);
  // A database that is not up yet (a cluster starting, a failover) is waited for, not a crash.
  const db = await retryTransient(
    () =>
      openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        logger,
        max: config.databasePoolSize,
        // The embedded database: the CLI reaches it through this process while it runs.
        share: true,
      }),
    {
      isTransient: isDatabaseUnavailable,
      onRetry: (err, attempt, retryInMs) =>
        logger.warn({ err, attempt, retryInMs }, 'the database cannot be reached yet; waiting for it'),
    },
  );
  if ((await countAccounts(db.sql)) === 0) {
    const { account, key } = await createAccountWithKey(db, { plan: 'trial', name: 'First account' });
    process.stdout.write(
      `\nCreated trial account ${account.id} with ${account.creditBalance} credits.\n` +
        `API key (shown once, store it now): ${key.secret}\n\n` +
        `  curl -H 'Authorization: Bearer ${key.secret}' ${config.publicBaseUrl}/v1/usage\n\n`,
    );
  }
  const pipeline = await createPipeline({ api: config, config: pipelineConfig(values), db, logger });
  const app = await buildApp({
    config,
    db,
    logger,
    executor: pipeline.executor,
    objects: pipeline.objects,
    links: pipeline.links,
  });
  await app.listen({ port: config.port, host: config.host });
  pipeline.start();

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      // Stop taking requests, drain the renders (finish or hand back), then close the database.
      app
        .close()
        .then(() => pipeline.close())
        .then(() => db.close())
        .then(
          () => 0,
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            return 1;
          },
        )
        .then((code) => {
          // Everything is drained and closed, but after a database outage postgres.js may still
          // open a socket: its LISTEN connection re-listens when end() closes it (the listener
          // it re-created no longer answers to our unlisten), which would keep this process
          // alive for ever. Nothing is left to do, so a lingering handle gets a second to go.
          setTimeout(() => process.exit(code), 1_000).unref();
          resolve(code);
        });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
