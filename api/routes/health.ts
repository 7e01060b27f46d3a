import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { databaseUnavailable } from '../plugins/error-handler.ts';

/** How long readiness waits for the database before calling it unreachable. */
const DATABASE_CHECK_MS = 2_000;

const HealthSchema = Type.Object({ status: Type.String() });

/**
 * Probes for orchestrators and load balancers, outside the versioned API and without a key.
 * /healthz (liveness) says the process answers; restarting it would not help a lost database, so
 * it does not look at one. /readyz (readiness) says whether requests can be served now: during a
 * database outage it answers 503 SERVICE_UNAVAILABLE, so traffic goes elsewhere until it is back.
 */
const health: FastifyPluginAsyncTypebox = async (app) => {
  const probe = { config: { public: true }, schema: { hide: true, response: { 200: HealthSchema } } };
  app.get('/healthz', probe, async () => ({ status: 'ok' }));
  app.get('/readyz', probe, async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), DATABASE_CHECK_MS);
    });
    try {
      const answer = await Promise.race([app.db.sql`SELECT 1`.then(() => 'ok' as const), timeout]);
      if (answer === 'timeout') throw new Error(`no answer in ${DATABASE_CHECK_MS} ms`);
    } catch (err) {
      throw databaseUnavailable(err, 'Not ready: the database cannot be reached.');
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ready' };
  });
};

export default health;
