import { EnvSchema, readEnv } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { ChangeFeed } from '../store/change-feed.ts';
import type { Database } from '../store/database.ts';
import { buildApp } from './app.ts';
import { apiConfig } from './config.ts';

/**
 * The canonical OpenAPI document, generated without a database (none is touched to describe
 * routes): what GET /v1/openapi.json serves, the route schemas refined by api/http/openapi-schemas.ts.
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = apiConfig(readEnv(EnvSchema, {}).values, {
    publicBaseUrl: 'http://localhost:8080',
    authCacheTtlMs: 0,
    renderCacheTtlMs: 0,
  });
  const nodb = {
    kind: 'pglite',
    url: '',
    sql: null,
    renderChanges: new ChangeFeed(),
    close: async () => {},
  } as unknown as Database;
  const app = await buildApp({ config, db: nodb, logger: createLogger({ level: 'silent' }) });
  try {
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
