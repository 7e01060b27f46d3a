import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import postgres from 'postgres';
import { type BuildAppOptions, buildApp } from '../../api/app.ts';
import { createAccountWithKey } from '../../api/auth/provision.ts';
import { type ApiConfig, apiConfig } from '../../api/config.ts';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { createLogger } from '../../lib/logger.ts';
import { type Database, openDatabase } from '../../store/database.ts';
import type { KeyMode, Plan } from '../../store/types.ts';
import { assertMatchesOpenApi } from './openapi-check.ts';

export const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export interface Backend {
  name: 'postgres' | 'pglite';
  /** A fresh, migrated database for one test file. */
  open(): Promise<Database>;
}

/** A brand-new database on the test PostgreSQL server, dropped when closed. */
async function freshPostgres(baseUrl: string): Promise<Database> {
  const name = `fw_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '.', logger });
  return {
    ...db,
    close: async () => {
      await db.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function freshPglite(): Promise<Database> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-pglite-'));
  const db = await openDatabase({ dataDir: dir, logger });
  return {
    ...db,
    close: async () => {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Real PostgreSQL (TEST_DATABASE_URL, set by scripts/test.sh) and the embedded PGlite. */
export function backends(): Backend[] {
  const list: Backend[] = [];
  const url = process.env.TEST_DATABASE_URL;
  if (url) list.push({ name: 'postgres', open: () => freshPostgres(url) });
  else process.stderr.write('TEST_DATABASE_URL is not set: PostgreSQL cases are skipped (run scripts/test.sh)\n');
  list.push({ name: 'pglite', open: freshPglite });
  return list;
}

export function testConfig(overrides: Partial<ApiConfig> = {}): ApiConfig {
  // The key cache is off unless a test turns it on: most tests revoke keys and expect it at once.
  return apiConfig(readEnv(EnvSchema, {}).values, {
    publicBaseUrl: 'http://api.test',
    authCacheTtlMs: 0,
    ...overrides,
  });
}

export async function startApp(db: Database, options: Partial<BuildAppOptions> = {}): Promise<FastifyInstance> {
  return buildApp({ config: options.config ?? testConfig(), db, logger, ...options });
}

export async function newAccount(
  db: Database,
  opts: { plan?: Plan; credits?: number; mode?: KeyMode } = {},
): Promise<{ accountId: string; keyId: string; key: string }> {
  const { account, key } = await createAccountWithKey(db, { plan: opts.plan ?? 'pro', ...opts });
  return { accountId: account.id, keyId: key.row.id, key: key.secret };
}

export type Call = (
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse & { json<T = Record<string, unknown>>(): T }>;

/**
 * A client for one key. Every response is checked against the committed OpenAPI document
 * (status declared, body valid) and must carry X-Request-Id.
 */
export function client(app: FastifyInstance, key: string | null): Call {
  return async (method, url, body, headers = {}) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
    if (!res.headers['x-request-id']) throw new Error(`${method} ${url}: no X-Request-Id`);
    assertMatchesOpenApi(String(method), url, res);
    return res as never;
  };
}

/**
 * Runs `suite` once per backend as a subtest, with a fresh database closed afterwards: after the
 * subtest's own `after` hooks (they run in the order registered), since an app or a worker closed
 * there may still write to it (closing it first made those writes fail with CONNECTION_ENDED).
 */
export async function eachBackend(
  t: TestContext,
  suite: (t: TestContext, db: Database) => Promise<void>,
): Promise<void> {
  await Promise.all(
    backends().map((b) =>
      t.test(b.name, async (st) => {
        const db = await b.open();
        try {
          await suite(st, db);
        } finally {
          st.after(() => db.close());
        }
      }),
    ),
  );
}
