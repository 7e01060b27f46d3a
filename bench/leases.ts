/**
 * `framewright bench leases` (`make bench-leases`, needs scripts/with-services.sh for
 * TEST_DATABASE_URL): what a claim, a heartbeat and the abandoned-lease sweep cost on PostgreSQL
 * with many renders running (10,000 by default), 100,000 finished and a queue of 5,000.
 *
 * Baselines, measured in the same run and database, alternating with the figures in rounds:
 * - claim and sweep: the statements of the release before (issue 42, item 4), kept here verbatim,
 *   which compared leases with `clock_timestamp()` (volatile, so no index condition) and read every
 *   running render's row;
 * - heartbeat: a primary-key SELECT of the same row, the floor of any statement on one render.
 * Each claim takes a render for real (the queue shrinks by one); each baseline claim runs in a
 * transaction that is rolled back. Latency is per call from this process (a local server):
 * p50 and p99 of `--calls` calls each.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createAccountWithKey } from '../api/auth/provision.ts';
import { createLogger } from '../lib/logger.ts';
import { type Database, openDatabase } from '../store/database.ts';
import * as lifecycle from '../store/lifecycle/render-lifecycle.ts';
import { seedRenders } from '../test/services/render-rows.ts';

const MAX_ATTEMPTS = 3;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;

/** The claim before issue 42: one SELECT whose OR and volatile clock read every running row. */
async function claimBefore(db: Database, owner: string): Promise<void> {
  await db.sql
    .begin(async (tx) => {
      const [row] = await tx<{ id: string }[]>`
        SELECT id, status FROM renders
        WHERE (status = 'queued'
           OR (status IN ('preparing', 'rendering') AND lease_expires_at <= clock_timestamp() AND attempts < ${MAX_ATTEMPTS}))
        ORDER BY created_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED`;
      if (!row) throw new Error('the queue ran dry: raise the queue');
      await tx`
        UPDATE renders r SET
          status = CASE WHEN r.status = 'queued' THEN 'preparing' ELSE r.status END,
          attempts = r.attempts + 1, lease_owner = ${owner},
          lease_expires_at = clock_timestamp() + interval '1 minute'
        FROM accounts a WHERE r.id = ${row.id} AND a.id = r.account_id
        RETURNING r.*, a.plan`;
      throw ROLLBACK;
    })
    .catch((err) => {
      if (err !== ROLLBACK) throw err;
    });
}
const ROLLBACK = new Error('rollback');

/** The abandoned sweep before issue 42. */
async function abandonedBefore(db: Database): Promise<void> {
  await db.sql`
    SELECT id FROM renders
    WHERE status IN ('preparing', 'rendering') AND lease_expires_at <= clock_timestamp() AND attempts >= ${MAX_ATTEMPTS}`;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { running: { type: 'string', default: '10000' }, calls: { type: 'string', default: '1000' } },
  });
  const running = Number(values.running);
  const calls = Number(values.calls);
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    process.stderr.write('bench leases: TEST_DATABASE_URL is not set (make bench-leases starts PostgreSQL)\n');
    return 2;
  }
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const name = `fw_bench_${randomBytes(6).toString('hex')}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const db = await openDatabase({
    databaseUrl: dbUrl.toString(),
    dataDir: '.',
    logger: createLogger({ level: 'warn' }),
    max: 1,
  });
  try {
    const { account, key } = await createAccountWithKey(db, { plan: 'pro', credits: 1e9 });
    const queued = calls + 4_000;
    const seedStart = Date.now();
    await seedRenders(db, { accountId: account.id, keyId: key.row.id }, { finished: 100_000, running, queued });
    process.stdout.write(
      `seeded ${running} running, 100000 finished, ${queued} queued renders in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`,
    );
    const deps: lifecycle.LifecycleDeps = { db, now: () => new Date() };
    const lease = { owner: 'bench', leaseMs: 60_000 };
    const holder = { owner: 'holder7', leaseMs: 60_000 };
    const rows: Record<string, { now: number[]; before: number[]; baseline: string }> = {
      claim: { now: [], before: [], baseline: 'the claim before' },
      heartbeat: { now: [], before: [], baseline: 'SELECT by primary key' },
      'abandoned sweep': { now: [], before: [], baseline: 'the sweep before' },
    };
    // Warm the plans and the cache of both sides first.
    for (let i = 0; i < 20; i++) {
      await claimBefore(db, 'warm');
      await lifecycle.abandonedRenders(deps, MAX_ATTEMPTS);
      await abandonedBefore(db);
    }
    for (let i = 0; i < calls; i++) {
      rows.claim?.before.push(await timed(() => claimBefore(db, 'bench-before')));
      rows.claim?.now.push(await timed(() => lifecycle.claimNext(deps, lease, MAX_ATTEMPTS)));
      rows.heartbeat?.before.push(
        await timed(() => db.sql`SELECT id, lease_expires_at FROM renders WHERE id = 'rnd_run7'`),
      );
      rows.heartbeat?.now.push(await timed(() => lifecycle.heartbeat(deps, 'rnd_run7', holder)));
      rows['abandoned sweep']?.before.push(await timed(() => abandonedBefore(db)));
      rows['abandoned sweep']?.now.push(await timed(() => lifecycle.abandonedRenders(deps, MAX_ATTEMPTS)));
    }
    process.stdout.write(
      `\n${running} renders running; ${calls} calls each, alternating; ms per call\n` +
        `${'statement'.padEnd(16)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}   ${'baseline'.padEnd(22)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}   p50 ratio\n`,
    );
    for (const [label, row] of Object.entries(rows)) {
      const now = [...row.now].sort((a, b) => a - b);
      const before = [...row.before].sort((a, b) => a - b);
      const f = (n: number) => n.toFixed(3).padStart(7);
      process.stdout.write(
        `${label.padEnd(16)} ${f(pct(now, 0.5))} ${f(pct(now, 0.99))}   ${row.baseline.padEnd(22)} ${f(pct(before, 0.5))} ${f(pct(before, 0.99))}   ${(pct(now, 0.5) / pct(before, 0.5)).toFixed(2)}x\n`,
      );
    }
    return 0;
  } finally {
    await db.close();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
