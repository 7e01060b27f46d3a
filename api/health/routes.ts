import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../lib/errors.ts';
import { DATABASE_DEADLINE_MS } from '../../store/db-deadline.ts';
import { loadMigrations, type Migration, pendingMigrations } from '../../store/migrate.ts';
import { databaseUnavailable } from '../plugins/error-handler.ts';

/**
 * How long readiness waits for the database before calling it unreachable: the deadline of every
 * request's database step, so /readyz says not ready exactly when requests answer 503. (The
 * request scope already bounds its query; the race also bounds loading the migration files.)
 */
const DATABASE_CHECK_MS = DATABASE_DEADLINE_MS;

const HealthSchema = Type.Object({ status: Type.String() });

/**
 * Probes for orchestrators and load balancers, outside the versioned API and without a key.
 * /healthz (liveness) says the process answers; restarting it would not help a lost database, so
 * it does not look at one. /readyz (readiness) says whether requests can be served now, and
 * answers 503 SERVICE_UNAVAILABLE (with the reason) when they cannot: while the process drains
 * after SIGTERM, while the database cannot be reached, and while it lacks a migration this build
 * needs (restored from an older backup, or rolled back by an older version's process).
 */
const health: FastifyPluginAsyncTypebox = async (app) => {
  const probe = { config: { public: true }, schema: { hide: true, response: { 200: HealthSchema } } };
  let migrations: Promise<Migration[]> | undefined;
  app.get('/healthz', probe, async () => ({ status: 'ok' }));
  app.get('/readyz', probe, async () => {
    if (app.readiness.draining) throw notReady('Not ready: shutting down.');
    migrations ??= loadMigrations();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), DATABASE_CHECK_MS);
    });
    let pending: string[];
    try {
      const answer = await Promise.race([pendingMigrations(app.db.sql, await migrations), timeout]);
      if (answer === 'timeout') throw new Error(`no answer in ${DATABASE_CHECK_MS} ms`);
      pending = answer;
    } catch (err) {
      throw databaseUnavailable(err, 'Not ready: the database cannot be reached.');
    } finally {
      clearTimeout(timer);
    }
    if (pending.length) throw notReady(`Not ready: the database lacks migrations ${pending.join(', ')}.`);
    return { status: 'ready' };
  });
};

function notReady(message: string): AppError {
  return new AppError('SERVICE_UNAVAILABLE', message, { headers: { 'retry-after': '5' } });
}

export default health;
