// POST /v1/renders/{id}/cancel on PostgreSQL and PGlite: each state a render can be cancelled in
// (queued; preparing and rendering as a holder with a lease leaves them), what it settles (the
// reservation released, nothing charged, the render.failed outbox row), that the holder's late
// reports and outcome are refused, idempotence, the finished render's 409, and who may cancel.
// The worker being stopped is test/pipeline/cancel.test.ts; the cluster's, test/cluster/operator.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { issueKey } from '../../api/auth/provision.ts';
import type { ExecutorPort } from '../../api/execution/executor.ts';
import { errorBody } from '../../lib/errors.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import type { RenderRow } from '../../store/types.ts';
import { movie } from './docs.ts';
import { client, eachBackend, newAccount, startApp, testConfig } from './helpers.ts';

type Resource = Record<string, unknown> & {
  id: string;
  status: string;
  progress: number;
  error: { code: string; message: string; docsUrl: string; path?: string } | null;
  updatedAt: string;
};
type Envelope = { error: { code: string; message: string; path?: string; docsUrl: string } };
type Credits = { balance: number; reserved: number; available: number };

/** Records which renders the API asked its executor to stop. */
class RecordingExecutor implements ExecutorPort {
  readonly cancelled: string[] = [];
  async submit(_render: RenderRow): Promise<void> {}
  async cancel(render: RenderRow): Promise<void> {
    this.cancelled.push(render.id);
  }
  async close(): Promise<void> {}
}

test('POST /v1/renders/{id}/cancel', async (t) => {
  await eachBackend(t, async (t, db) => {
    const executor = new RecordingExecutor();
    const app = await startApp(db, { config: testConfig({ allowPrivateUrls: true }), executor });
    t.after(() => app.close());
    const deps = { db, now: () => new Date() };
    const hook = 'http://127.0.0.1:9/hook';

    const outbox = (id: string) =>
      db.sql<{ eventType: string; url: string }[]>`SELECT event_type, url FROM webhook_outbox WHERE render_id = ${id}`;
    const settled = async (id: string) => {
      const [r] = await db.sql<{ chargedCredits: number; reservedCredits: number; leaseOwner: string | null }[]>`
        SELECT charged_credits, reserved_credits, lease_owner FROM renders WHERE id = ${id}`;
      return r;
    };
    /** Charges of renders in the account's ledger (its grant is there too). */
    const ledger = async (accountId: string) =>
      (
        await db.sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = ${accountId} AND reason = 'render'`
      )[0]?.n;
    /** As the in-process executor leaves a render it runs: claimed with a lease, at `phase`. */
    const hold = async (id: string, phase: 'preparing' | 'rendering', owner: string) => {
      await db.sql`UPDATE renders SET status = 'preparing', attempts = 1, lease_owner = ${owner},
        lease_expires_at = clock_timestamp() + interval '30 seconds' WHERE id = ${id}`;
      const lease = { owner, leaseMs: 30_000 };
      if (phase === 'rendering') {
        assert.ok(await lifecycle.reportProgress(deps, id, lease, { phase, progress: 46, durationSec: 60 }));
      }
      return lease;
    };

    await t.test(
      'a queued render: failed RENDER_CANCELLED, its credits available again, render.failed queued',
      async () => {
        const acc = await newAccount(db, { plan: 'pro', credits: 100 });
        const api = client(app, acc.key);
        const created = await api('POST', '/v1/renders', { movie: movie(60), webhook_url: hook });
        assert.equal(created.statusCode, 201, created.body);
        const id = created.json<Resource>().id;
        assert.deepEqual((await api('GET', '/v1/usage')).json<{ credits: Credits }>().credits, {
          balance: 100,
          reserved: 10,
          available: 90,
        });

        const res = await api('POST', `/v1/renders/${id}/cancel`);
        assert.equal(res.statusCode, 200, res.body);
        const r = res.json<Resource>();
        assert.equal(r.status, 'failed');
        assert.equal(r.progress, 0);
        assert.equal(r.error?.code, 'RENDER_CANCELLED');
        assert.match(r.error?.message ?? '', /cancelled by a request .*Nothing was charged/);
        assert.equal(r.error?.docsUrl, 'http://api.test/docs/errors/RENDER_CANCELLED');
        assert.equal(r.error?.path, undefined);
        assert.equal(r.outputUrl, null);
        assert.deepEqual((await api('GET', `/v1/renders/${id}`)).json(), r, 'GET shows it at once');
        assert.deepEqual((await api('GET', '/v1/usage')).json<{ credits: Credits }>().credits, {
          balance: 100,
          reserved: 0,
          available: 100,
        });
        assert.deepEqual(await settled(id), { chargedCredits: 0, reservedCredits: 0, leaseOwner: null });
        assert.equal(await ledger(acc.accountId), 0, 'nothing charged');
        assert.deepEqual(
          (await outbox(id)).map((e) => [e.eventType, e.url]),
          [['render.failed', hook]],
        );
        assert.deepEqual(executor.cancelled.at(-1), id, 'the executor was told to stop it');
      },
    );

    for (const phase of ['preparing', 'rendering'] as const) {
      await t.test(`a ${phase} render: cancelled, and its holder's late reports and outcome are refused`, async () => {
        const acc = await newAccount(db, { plan: 'pro', credits: 100 });
        const api = client(app, acc.key);
        const id = (await api('POST', '/v1/renders', { movie: movie(60), webhook_url: hook })).json<Resource>().id;
        const lease = await hold(id, phase, `exec-test.${phase}`);
        assert.equal((await api('GET', `/v1/renders/${id}`)).json<Resource>().status, phase);

        const res = await api('POST', `/v1/renders/${id}/cancel`);
        assert.equal(res.statusCode, 200, res.body);
        const r = res.json<Resource>();
        assert.equal(r.status, 'failed');
        assert.equal(r.error?.code, 'RENDER_CANCELLED');
        assert.equal(r.progress, phase === 'rendering' ? 46 : 0, 'the progress it had shown stays');

        // The worker's reports after the cancellation: none goes through, and it is never done.
        assert.equal(await lifecycle.heartbeat(deps, id, lease), false, 'heartbeat refused');
        assert.equal(
          await lifecycle.reportProgress(deps, id, lease, { phase: 'rendering', progress: 90 }),
          false,
          'progress refused',
        );
        assert.equal(
          await lifecycle.complete(deps, id, lease, { durationSec: 60, outputKey: `renders/${id}.mp4` }),
          false,
          'a late completion is refused',
        );
        assert.equal(
          await lifecycle.complete(deps, id, null, { durationSec: 60, outputKey: `renders/${id}.mp4` }),
          false,
          'also without a lease (the operator)',
        );
        assert.equal(
          await lifecycle.fail(deps, id, lease, errorBody('http://api.test', 'RENDER_FAILED', 'stopped')),
          false,
          'its crash is not recorded over the cancellation',
        );
        const after = (await api('GET', `/v1/renders/${id}`)).json<Resource>();
        assert.deepEqual(after, r, 'unchanged by the holder');
        assert.deepEqual(await settled(id), { chargedCredits: 0, reservedCredits: 0, leaseOwner: null });
        assert.equal(await ledger(acc.accountId), 0);
        assert.deepEqual((await api('GET', '/v1/usage')).json<{ credits: Credits }>().credits.available, 100);
        assert.deepEqual(
          (await outbox(id)).map((e) => e.eventType),
          ['render.failed'],
        );
      });
    }

    await t.test('cancelling twice answers the same render; nothing is settled or sent again', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const id = (await api('POST', '/v1/renders', { movie: movie(60), webhook_url: hook })).json<Resource>().id;
      const first = await api('POST', `/v1/renders/${id}/cancel`);
      assert.equal(first.statusCode, 200);
      const asked = executor.cancelled.length;
      const second = await api('POST', `/v1/renders/${id}/cancel`);
      assert.equal(second.statusCode, 200, second.body);
      assert.deepEqual(second.json(), first.json(), 'the same resource, updatedAt included');
      assert.equal((await outbox(id)).length, 1, 'one render.failed');
      assert.equal(executor.cancelled.length, asked + 1, 'the executor is asked again (a Render left is retried)');
      // A render cancelled another way (its Render deleted in a cluster) is cancelled too.
      const other = (await api('POST', '/v1/renders', { movie: movie(6) })).json<Resource>().id;
      const gone = lifecycle.cancelledError('http://api.test', 'its Render was deleted');
      assert.equal((await lifecycle.cancel(deps, other, gone))?.cancelled, true);
      const again = await api('POST', `/v1/renders/${other}/cancel`);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json<Resource>().error?.message, 'its Render was deleted', 'its own reason stays');
    });

    await t.test('a finished render is RENDER_NOT_CANCELLABLE (409) and stays as it is', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const done = (await api('POST', '/v1/renders', { movie: movie(60) })).json<Resource>().id;
      assert.ok(await lifecycle.complete(deps, done, null, { durationSec: 60, outputKey: `renders/${done}.mp4` }));
      const failed = (await api('POST', '/v1/renders', { movie: movie(6) })).json<Resource>().id;
      const unreachable = errorBody('http://api.test', 'ASSET_UNREACHABLE', 'no', 'scenes[0].elements[0].src');
      assert.ok(await lifecycle.fail(deps, failed, null, unreachable));
      const asked = executor.cancelled.length;
      for (const [id, status, detail] of [
        [done, 'done', 'done'],
        [failed, 'failed', 'failed, ASSET_UNREACHABLE'],
      ] as const) {
        const before = (await api('GET', `/v1/renders/${id}`)).json<Resource>();
        assert.equal(before.status, status);
        const res = await api('POST', `/v1/renders/${id}/cancel`);
        assert.equal(res.statusCode, 409, res.body);
        const { error } = res.json<Envelope>();
        assert.equal(error.code, 'RENDER_NOT_CANCELLABLE');
        assert.equal(error.docsUrl, 'http://api.test/docs/errors/RENDER_NOT_CANCELLABLE');
        assert.equal(
          error.message,
          `Render ${id} has finished (${detail}); only a queued, preparing or rendering render can be cancelled.`,
        );
        assert.deepEqual((await api('GET', `/v1/renders/${id}`)).json(), before, 'unchanged');
      }
      assert.equal(executor.cancelled.length, asked, 'nothing to stop');
      const [{ chargedCredits } = { chargedCredits: -1 }] = await db.sql<{ chargedCredits: number }[]>`
        SELECT charged_credits FROM renders WHERE id = ${done}`;
      assert.equal(chargedCredits, 10, 'the done render keeps its charge');
    });

    await t.test(
      "another account's render, or the other key mode's, is NOT_FOUND; a test key cancels its own",
      async () => {
        const owner = await newAccount(db, { plan: 'pro', credits: 100 });
        const stranger = await newAccount(db, { plan: 'pro', credits: 100 });
        const testKey = await issueKey(db.sql, owner.accountId, 'test');
        const live = client(app, owner.key);
        const testApi = client(app, testKey.secret);
        const liveId = (await live('POST', '/v1/renders', { movie: movie(6) })).json<Resource>().id;
        const testId = (await testApi('POST', '/v1/renders', { movie: movie(6) })).json<Resource>().id;
        const cases: [string, ReturnType<typeof client>, string][] = [
          ['another account', client(app, stranger.key), liveId],
          ['a test key, a live render', testApi, liveId],
          ['a live key, a test render', live, testId],
          ['an unknown id', live, 'rnd_01m851406t7zw5prpwqwydbh9r'],
          ['an id of another kind', live, 'tpl_01m851406t7zw5prpwqwydbh9r'],
        ];
        for (const [name, api, id] of cases) {
          const res = await api('POST', `/v1/renders/${id}/cancel`);
          assert.equal(res.statusCode, 404, `${name}: ${res.body}`);
          assert.deepEqual(
            { code: res.json<Envelope>().error.code, path: res.json<Envelope>().error.path },
            { code: 'NOT_FOUND', path: 'id' },
            name,
          );
        }
        assert.equal((await live('GET', `/v1/renders/${liveId}`)).json<Resource>().status, 'queued', 'left alone');
        assert.equal((await testApi('GET', `/v1/renders/${testId}`)).json<Resource>().status, 'queued', 'left alone');
        const own = await testApi('POST', `/v1/renders/${testId}/cancel`);
        assert.equal(own.statusCode, 200, own.body);
        assert.equal(own.json<Resource>().error?.code, 'RENDER_CANCELLED');
        const anonymous = await client(app, null)('POST', `/v1/renders/${liveId}/cancel`);
        assert.equal(anonymous.statusCode, 401);
      },
    );
  });
});
