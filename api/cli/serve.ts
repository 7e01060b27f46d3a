import { parseArgs } from 'node:util';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { createLogger, logUnhandledRejections } from '../../lib/logger.ts';
import { untilShutdown } from '../../lib/shutdown.ts';
import { countAccounts } from '../../store/accounts-repo.ts';
import { openDatabaseWhenUp } from '../../store/database.ts';
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

  // Stop taking requests, drain the renders (finish or hand back), then close the database.
  return untilShutdown(logger, async () => {
    await app.close();
    await pipeline.close();
    await db.close();
  });
}
