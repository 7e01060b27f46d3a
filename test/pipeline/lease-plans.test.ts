import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import postgres from 'postgres';
import { type Database, openDatabase } from '../../store/database.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import { newAccount } from '../api/helpers.ts';
import { seedRenders } from '../services/render-rows.ts';

/**
 * Issue 42, item 4: leases at scale. With 10,000 renders running (their leases held), 20,000
 * finished and 2,000 queued, a claim, a heartbeat and the abandoned sweep each reach their rows
 * through an index and read a handful of them, not every running render's. The plans are the
 * server's own, of the real functions' statements as they run: auto_explain logs each one's plan
 * (with the rows each node read), and the database's notices reach the test through its logger.
 * `make bench-leases` measures their latency.
 */

const url = process.env.TEST_DATABASE_URL;
const RUNNING = 10_000;
const FINISHED = 20_000;
const QUEUED = 2_000;
const MAX_ATTEMPTS = 3;
const lease: lifecycle.Lease = { owner: 'lease-plans', leaseMs: 60_000 };

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan tree. */
function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe('leases at scale: claim, heartbeat and the abandoned sweep read through an index', {
  skip: url ? false : 'TEST_DATABASE_URL is not set (run through scripts/test.sh); auto_explain is not in PGlite',
  timeout: 120_000,
}, () => {
  const notices: string[] = [];
  let admin: postgres.Sql;
  let name: string;
  let db: Database;
  let deps: lifecycle.LifecycleDeps;
  const ids = { expired: [] as string[], abandoned: [] as string[], oldestQueued: '' };

  before(async () => {
    admin = postgres(url as string, { max: 1, onnotice: () => {} });
    name = `fw_test_${randomBytes(6).toString('hex')}`;
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const dbUrl = new URL(url as string);
    dbUrl.pathname = `/${name}`;
    // What the database says besides answers goes to its logger at debug level (store/database.ts).
    const logger = pino(
      { level: 'debug' },
      {
        write(line: string) {
          const record = JSON.parse(line) as { msg?: string; notice?: string };
          if (record.msg === 'database notice' && record.notice) notices.push(record.notice);
        },
      },
    );
    // One connection, so that the session settings below hold for every statement.
    db = await openDatabase({ databaseUrl: dbUrl.toString(), dataDir: '.', logger, max: 1 });
    deps = { db, now: () => new Date() };

    const { accountId, keyId } = await newAccount(db, { plan: 'pro', credits: 1_000_000 });
    await seedRenders(db, { accountId, keyId }, { finished: FINISHED, running: RUNNING, queued: QUEUED });
    // Created long before the rest, leases over: two with attempts left (claimed first, oldest
    // first), two with none (the abandoned sweep's).
    await db.sql.unsafe(`UPDATE renders SET created_at = now() - interval '2 days' - right(id, 1)::int * interval '1 hour',
      lease_expires_at = now() - interval '1 minute', attempts = CASE WHEN id < 'rnd_run3' THEN 1 ELSE ${MAX_ATTEMPTS} END
      WHERE id IN ('rnd_run1', 'rnd_run2', 'rnd_run3', 'rnd_run4')`);
    ids.expired = ['rnd_run2', 'rnd_run1'];
    ids.abandoned = ['rnd_run3', 'rnd_run4'];
    ids.oldestQueued = `rnd_wait${QUEUED}`;

    await db.sql`LOAD 'auto_explain'`;
    await db.sql`SET auto_explain.log_min_duration = 0`;
    await db.sql`SET auto_explain.log_analyze = on`;
    await db.sql`SET auto_explain.log_format = json`;
    await db.sql`SET client_min_messages = log`;
  });

  after(async () => {
    await db?.close();
    await admin?.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  /** Runs `call` and answers what it answered with the plans of the statements it ran. */
  async function planned<T>(call: () => Promise<T>): Promise<{ result: T; plans: PlanNode[] }> {
    notices.length = 0;
    const result = await call();
    const plans = notices
      .filter((n) => n.includes('plan:'))
      .map((n) => (JSON.parse(n.slice(n.indexOf('{'))) as { Plan: PlanNode }).Plan);
    assert.ok(plans.length > 0, 'auto_explain logged the statements');
    return { result, plans };
  }

  /** The rows the scans of `renders` touched: what they returned and what their filters dropped. */
  function rendersRowsRead(plans: PlanNode[]): { read: number; scans: string[] } {
    const scans = plans.flatMap(nodes).filter((n) => n['Relation Name'] === 'renders');
    const read = scans.reduce(
      (sum, n) =>
        sum +
        ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) *
          (n['Actual Loops'] ?? 1),
      0,
    );
    return {
      read,
      scans: scans.map(
        (n) =>
          `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''} (${n['Actual Rows']} rows, ${n['Actual Loops']} loops, ${n['Rows Removed by Filter'] ?? 0} filtered)`,
      ),
    };
  }

  function assertIndexed(plans: PlanNode[], what: string): void {
    const { read, scans } = rendersRowsRead(plans);
    assert.ok(scans.length > 0, `${what}: a scan of renders`);
    assert.ok(!scans.some((s) => s.startsWith('Seq Scan')), `${what}: ${scans.join(', ')}`);
    // Before the index could serve the lease comparison, each of these read all 10,000 running rows.
    // A few dozen is the floor: the claim's incremental sort (created_at from renders_queue, then
    // id) takes the queue's first 32 rows at least.
    assert.ok(read <= 100, `${what} read ${read} rows of renders (${scans.join(', ')})`);
  }

  it('a claim takes the oldest expired lease, then the oldest queued render, each through its index', async () => {
    for (const want of [...ids.expired, ids.oldestQueued]) {
      const { result, plans } = await planned(() => lifecycle.claimNext(deps, lease, MAX_ATTEMPTS));
      assert.equal(result?.id, want);
      const [row] = await db.sql<{ leaseOwner: string }[]>`SELECT lease_owner FROM renders WHERE id = ${want}`;
      assert.equal(row?.leaseOwner, lease.owner);
      // A render whose lease expired goes on where it was; a queued one starts preparing.
      assert.equal(result?.status, want.startsWith('rnd_wait') ? 'preparing' : 'rendering');
      assertIndexed(plans, `claim of ${want}`);
      const scans = rendersRowsRead(plans).scans.join(', ');
      assert.match(scans, /renders_queue/);
      assert.match(scans, /renders_leases/);
    }
  });

  it('a heartbeat renews its own lease through the primary key and is refused for another holder', async () => {
    const holder = { owner: 'holder10', leaseMs: lease.leaseMs };
    const { result, plans } = await planned(() => lifecycle.heartbeat(deps, 'rnd_run10', holder));
    assert.equal(result, true);
    assertIndexed(plans, 'heartbeat');
    assert.equal(await lifecycle.heartbeat(deps, 'rnd_run10', lease), false, 'held by holder10');
  });

  it('the abandoned sweep finds the expired leases with no attempts left through renders_leases', async () => {
    const { result, plans } = await planned(() => lifecycle.abandonedRenders(deps, MAX_ATTEMPTS));
    assert.deepEqual([...result].sort(), ids.abandoned);
    assertIndexed(plans, 'abandoned sweep');
    assert.match(rendersRowsRead(plans).scans.join(', '), /renders_leases/);
  });
});
