/** The store: the Database port, migrations and the repositories (the only place with SQL). */
export * as accounts from './accounts-repo.ts';
export * as apiKeys from './api-keys-repo.ts';
export {
  type Database,
  type OpenDatabaseOptions,
  openDatabase,
  type Queryable,
  type Sql,
  type Tx,
} from './database.ts';
export * as idempotency from './idempotency-repo.ts';
export { loadMigrations, migrate } from './migrate.ts';
export * as renders from './renders-repo.ts';
export * as templates from './templates-repo.ts';
export * from './types.ts';
