import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { type FSWatcher, watch } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InProcessExecutor } from '../../api/execution/in-process-executor.ts';
import { objectStore } from '../../lib/storage/from-env.ts';
import type { Database } from '../../store/database.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import type { RenderRow } from '../../store/types.ts';
import { backends, logger, newAccount } from '../api/helpers.ts';
import { tinyMovie } from '../pipeline/harness.ts';
import { insertQueuedRender } from '../services/cluster-fixture.ts';
import type { TcpProxy } from '../services/tcp-proxy.ts';
import { databaseThroughProxy } from './outage-requests.ts';

/**
 * Issue 27, item 1: a render claimed twice after a database outage. A claim sent while the
 * database was unreachable came back 30 s later with a lease the executor had computed from its
 * own clock when it sent the call, already over; the next claim of the same loop took the render
 * again, and the two attempts wrote the same DATA_DIR/tmp/renders/<id>.mp4.part. Here the
 * outage is a TCP proxy in front of the database that stops forwarding (freeze) for longer than
 * the lease, on PostgreSQL and on the embedded PGlite (through its wire server).
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** How long the lease of render `id` has left on the database's clock, in ms (negative: over). */
async function leaseLeftMs(db: Database, id: string): Promise<number> {
  const [row] = await db.sql<{ leftMs: number }[]>`
    SELECT (extract(epoch FROM lease_expires_at - clock_timestamp()) * 1000)::float8 AS left_ms
    FROM renders WHERE id = ${id}`;
  assert.ok(row, `render ${id} exists`);
  return row.leftMs;
}

for (const backend of backends()) {
  describe(`one attempt per claim after a database outage, on ${backend.name}`, { timeout: 150_000 }, () => {
    /** The test's own connection, straight to the database. */
    let direct: Database;
    let proxy: TcpProxy;
    /** The same database through the proxy: what the code under test uses. */
    let viaProxy: Database;
    let account: { accountId: string; keyId: string };

    before(async () => {
      direct = await backend.open();
      ({ proxy, viaProxy } = await databaseThroughProxy(direct, backend.name));
      account = await newAccount(direct, { plan: 'pro', credits: 10_000 });
    });
    after(async () => {
      proxy.thaw();
      await viaProxy?.close();
      await proxy?.close();
      await direct?.close();
    });

    const queue = (movie: Record<string, unknown> = tinyMovie()) =>
      insertQueuedRender(direct.sql, { ...account, movie });
    /** Nothing runnable left behind by an earlier case. */
    const clear = () => direct.sql`UPDATE renders SET status = 'failed' WHERE status <> 'done'`;

    it('measures a lease from when the claim ran on the database, not from when it was sent', async () => {
      await clear();
      const { id } = await queue();
      const leaseMs = 1_000;
      proxy.freeze();
      const claim = lifecycle.claimNext({ db: viaProxy, now: () => new Date() }, { owner: 'slow', leaseMs }, 2);
      await sleep(leaseMs + 500);
      proxy.thaw();
      const claimed = await claim;
      assert.equal(claimed?.id, id);
      const left = await leaseLeftMs(direct, id);
      assert.ok(left > leaseMs / 2, `the lease had ${Math.round(left)} ms left when the slow claim came back`);
      assert.equal(
        await lifecycle.claimNext({ db: direct, now: () => new Date() }, { owner: 'other', leaseMs }, 2),
        undefined,
        'the render is not claimed a second time',
      );
    });

    it("leaves the lease to the database's clock, whatever the caller's clock says", async () => {
      await clear();
      const { id } = await queue();
      // A caller whose clock is an hour behind (or a test's fake clock): the lease is still 60 s.
      const behind = () => new Date(Date.now() - 3_600_000);
      const lease = { owner: 'skewed', leaseMs: 60_000 };
      assert.equal((await lifecycle.claimNext({ db: direct, now: behind }, lease, 2))?.id, id);
      assert.ok(Math.abs((await leaseLeftMs(direct, id)) - 60_000) < 5_000);
      await direct.sql`UPDATE renders SET lease_expires_at = clock_timestamp() + interval '1 second' WHERE id = ${id}`;
      assert.equal(await lifecycle.heartbeat({ db: direct, now: behind }, id, lease), true);
      assert.ok(Math.abs((await leaseLeftMs(direct, id)) - 60_000) < 5_000, 'a heartbeat renews it to 60 s too');
      assert.deepEqual(
        await lifecycle.abandonedRenders({ db: direct, now: () => new Date(Date.now() + 3_600_000) }, 1),
        [],
      );
    });

    describe('the in-process executor', () => {
      let dataDir: string;
      /** DATA_DIR/tmp/renders of the executor started last: each case has its own. */
      let scratchDir: string;
      const claims: string[] = [];
      let executor: InProcessExecutor | undefined;

      before(async () => {
        dataDir = await mkdtemp(path.join(tmpdir(), 'fw-double-claim-'));
      });
      after(async () => {
        await executor?.close();
        await rm(dataDir, { recursive: true, force: true });
      });

      async function startExecutor(
        db: Database,
        opts: { concurrency: number; leaseMs: number },
      ): Promise<InProcessExecutor> {
        scratchDir = await mkdtemp(path.join(dataDir, 'scratch-'));
        const started = new InProcessExecutor({
          db,
          objects: objectStore(undefined, dataDir),
          publicBaseUrl: 'http://api.test',
          scratchDir,
          logger,
          ...opts,
          maxAttempts: 2,
          // Idle between renders: it claims when told of one (submit), like serve after a POST.
          pollMs: 60_000,
          drainMs: 2_000,
          workerEnv: { ...process.env, LOG_LEVEL: 'warn' },
          observer: { claimed: (id) => claims.push(id), completed: () => {}, failed: () => {} },
        });
        started.start();
        return started;
      }

      /** The executor is asleep between claims (its claim loop is waiting to be woken). */
      const asleep = (e: InProcessExecutor) => (e as unknown as { wake?: () => void }).wake !== undefined;

      async function finished(id: string): Promise<RenderRow & { attempts: number }> {
        let row: (RenderRow & { attempts: number }) | undefined;
        await until(`render ${id} to finish`, 90_000, async () => {
          [row] = await direct.sql<(RenderRow & { attempts: number })[]>`SELECT * FROM renders WHERE id = ${id}`;
          return row?.status === 'done' || row?.status === 'failed';
        });
        return row as RenderRow & { attempts: number };
      }

      it('starts one attempt of a render whose claim came back after the lease would have ended', async () => {
        await clear();
        const leaseMs = 1_500;
        executor = await startExecutor(viaProxy, { concurrency: 2, leaseMs });
        const running = executor;
        await until('the executor to be idle', 30_000, () => asleep(running));
        const render = await queue();
        proxy.freeze();
        await executor.submit(render);
        await sleep(leaseMs + 1_000);
        proxy.thaw();
        const row = await finished(render.id);
        assert.deepEqual(
          claims.filter((id) => id === render.id),
          [render.id],
          'claimed once: the slow claim was not followed by a second claim of the same render',
        );
        assert.equal(row.status, 'done', JSON.stringify(row.error));
        assert.equal(row.attempts, 1);
        await executor.close();
        executor = undefined;
      });

      it("gives each attempt its own scratch files, so a retry never writes over the first's", async () => {
        await clear();
        executor = await startExecutor(direct, { concurrency: 1, leaseMs: 10_000 });
        const running = executor as unknown as { running: Map<string, { child: ChildProcess }> };
        const seen = new Set<string>();
        let render: RenderRow | undefined;
        let killed = false;
        // The first file the first attempt makes is its cue to die (a crash mid-render): the
        // render is claimed again at once and runs from the start as attempt 2.
        const watcher: FSWatcher = watch(scratchDir, (_event, name) => {
          if (!name) return;
          seen.add(name);
          const child = render && running.running.get(render.id)?.child;
          if (!killed && child) {
            killed = true;
            child.kill('SIGKILL');
          }
        });
        try {
          render = await queue(tinyMovie({ duration: 4 }));
          await executor.submit(render);
          const row = await finished(render.id);
          assert.equal(row.status, 'done', JSON.stringify(row.error));
          assert.equal(row.attempts, 2, 'the crashed attempt was retried');
          assert.ok(killed, 'the first attempt was killed mid-render');
        } finally {
          watcher.close();
        }
        // The files of one attempt all start with its output's name (<id>...mp4).
        const id = render.id;
        const outputs = new Set(
          [...seen].filter((n) => n.startsWith(id)).map((n) => n.slice(0, n.indexOf('.mp4') + 4)),
        );
        assert.equal(outputs.size, 2, `one output name per attempt: ${[...seen].join(', ')}`);
        await executor.close();
        executor = undefined;
      });
    });
  });
}
