import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../lib/ids.ts';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import { insertAccount } from '../../store/accounts-repo.ts';
import type { Database } from '../../store/database.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import { insertRender } from '../../store/renders-repo.ts';
import type { KeyMode, Plan, RenderRow } from '../../store/types.ts';
import { backends } from '../api/helpers.ts';

for (const backend of backends()) {
  describe(`render lifecycle on ${backend.name}`, () => {
    let db: Database;
    let clock = new Date('2026-01-01T00:00:00Z');
    const deps = () => ({ db, now: () => clock });
    const tick = (ms: number) => {
      clock = new Date(clock.getTime() + ms);
    };
    // Leases are on the database's clock, which `tick` does not move: this moves a lease `ms` nearer its end.
    const ageLease = (id: string, ms: number) =>
      db.sql`UPDATE renders SET lease_expires_at = lease_expires_at - ${ms}::float8 * interval '1 millisecond' WHERE id = ${id}`;
    const leaseA = { owner: 'exec-a', leaseMs: 30_000 };
    const leaseB = { owner: 'exec-b', leaseMs: 30_000 };

    before(async () => {
      db = await backend.open();
    });
    after(() => db.close());

    async function seed(
      opts: {
        credits?: number;
        reserved?: number;
        webhook?: string;
        mode?: KeyMode;
        plan?: Plan;
        movie?: Record<string, unknown>;
        draft?: boolean;
      } = {},
    ) {
      const accountId = newId('acc');
      await insertAccount(db.sql, {
        id: accountId,
        name: 't',
        plan: opts.plan ?? 'pro',
        creditBalance: opts.credits ?? 300,
        now: clock,
      });
      tick(1);
      const render = await insertRender(db.sql, {
        id: newId('rnd', clock.getTime()),
        accountId,
        mode: opts.mode ?? 'live',
        keyId: 'key_x',
        draft: opts.draft ?? false,
        watermark: false,
        movie: opts.movie ?? { schema: 'v1', preset: '16:9', resolution: '720p' },
        outputFormat: movieOutputFormat(opts.movie ?? {}),
        width: 1280,
        height: 720,
        fps: 30,
        estimatedSec: 60,
        reservedCredits: opts.reserved ?? 10,
        templateId: null,
        webhookUrl: opts.webhook ?? null,
        createdAt: clock,
      });
      return { accountId, id: render.id };
    }

    type Row = RenderRow & { attempts: number; outputKey: string | null };
    const row = async (id: string): Promise<Row> => {
      const [r] = await db.sql<Row[]>`SELECT * FROM renders WHERE id = ${id}`;
      assert.ok(r, `render ${id} exists`);
      return r;
    };
    const balance = async (accountId: string) =>
      (await db.sql<{ creditBalance: number }[]>`SELECT credit_balance FROM accounts WHERE id = ${accountId}`)[0]
        ?.creditBalance;
    const outbox = (renderId: string) =>
      db.sql<{ eventType: string; url: string }[]>`SELECT * FROM webhook_outbox WHERE render_id = ${renderId}`;
    const drain = async () => {
      while (await lifecycle.claimNext(deps(), { owner: 'drain', leaseMs: 1 }, 9)) {}
      await db.sql`UPDATE renders SET status = 'failed' WHERE status <> 'done'`;
    };

    it('runs queued -> preparing -> rendering -> done, settling credits and enqueueing the webhook', async () => {
      await drain();
      const { accountId, id } = await seed({ credits: 300, reserved: 10, webhook: 'https://hooks.example/x' });
      tick(1000);
      const claimed = await lifecycle.claimNext(deps(), leaseA, 2);
      assert.equal(claimed?.id, id);
      assert.equal(claimed?.status, 'preparing');
      assert.equal(claimed?.attempts, 1);
      assert.equal(claimed?.plan, 'pro');
      assert.equal(await lifecycle.claimNext(deps(), leaseB, 2), undefined, 'a claimed render is not claimed twice');

      assert.equal(await lifecycle.reportProgress(deps(), id, leaseA, { phase: 'preparing', progress: 12 }), true);
      tick(1000);
      await lifecycle.reportProgress(deps(), id, leaseA, { phase: 'rendering', progress: 20, durationSec: 42 });
      let r = await row(id);
      assert.equal(r.status, 'rendering');
      assert.equal(r.progress, 20);
      assert.equal(r.durationSec, 42);
      assert.equal(r.updatedAt.getTime(), clock.getTime());
      const changedAt = clock.getTime();
      tick(1000);
      await lifecycle.reportProgress(deps(), id, leaseA, { phase: 'rendering', progress: 70 });
      await lifecycle.reportProgress(deps(), id, leaseA, { phase: 'rendering', progress: 50 });
      r = await row(id);
      assert.equal(r.progress, 70, 'progress never decreases');
      assert.equal(r.updatedAt.getTime(), changedAt, 'updatedAt changes only with the status');

      const ok = await lifecycle.complete(deps(), id, leaseA, { durationSec: 42.5, outputKey: `renders/${id}.mp4` });
      assert.equal(ok, true);
      // Priced by the lifecycle: 42.5 s at weight 1 is 0.7083 min, 8 credits; pro keeps it 90 days.
      const expiresAt = new Date(clock.getTime() + 90 * 86_400_000);
      r = await row(id);
      assert.equal(r.status, 'done');
      assert.equal(r.progress, 100);
      assert.equal(r.chargedCredits, 8);
      assert.equal(r.reservedCredits, 0);
      assert.equal(r.meteredMinutes, 0.7083);
      assert.equal(r.durationSec, 42.5);
      assert.equal(r.outputKey, `renders/${id}.mp4`);
      assert.equal(r.expiresAt?.getTime(), expiresAt.getTime());
      assert.equal(await balance(accountId), 292);
      const events = await outbox(id);
      assert.deepEqual(
        events.map((e) => [e.eventType, e.url]),
        [['render.completed', 'https://hooks.example/x']],
      );
      assert.equal(
        await lifecycle.complete(deps(), id, leaseA, { durationSec: 1, outputKey: 'k' }),
        false,
        'a finished render is not finished twice',
      );
      assert.equal(
        await lifecycle.complete(deps(), id, null, { durationSec: 1, outputKey: 'k' }),
        false,
        'not without a lease either',
      );
      assert.equal(await balance(accountId), 292);
    });

    it('fails a render: nothing charged, the reservation released, render.failed enqueued', async () => {
      await drain();
      const { accountId, id } = await seed({ credits: 50, reserved: 20, webhook: 'https://hooks.example/y' });
      await lifecycle.claimNext(deps(), leaseA, 2);
      const error = {
        code: 'ASSET_UNREACHABLE' as const,
        message: 'timed out',
        path: 'scenes[0].elements[1].src',
        docsUrl: 'http://api/docs/errors/ASSET_UNREACHABLE',
      };
      assert.equal(await lifecycle.fail(deps(), id, leaseA, error), true);
      const r = await row(id);
      assert.equal(r.status, 'failed');
      assert.deepEqual(r.error, error);
      assert.equal(r.reservedCredits, 0);
      assert.equal(r.chargedCredits, 0);
      assert.equal(await balance(accountId), 50);
      assert.deepEqual(
        (await outbox(id)).map((e) => e.eventType),
        ['render.failed'],
      );
    });

    it('ignores a stale holder and lets an expired lease be reclaimed once, keeping progress', async () => {
      await drain();
      const { id } = await seed();
      await lifecycle.claimNext(deps(), leaseA, 2);
      await lifecycle.reportProgress(deps(), id, leaseA, { phase: 'rendering', progress: 60, durationSec: 10 });
      tick(10_000);
      assert.equal(await lifecycle.heartbeat(deps(), id, leaseA), true);
      assert.equal(await lifecycle.claimNext(deps(), leaseB, 2), undefined, 'a live lease is respected');
      tick(31_000);
      await ageLease(id, 31_000);
      const again = await lifecycle.claimNext(deps(), leaseB, 2);
      assert.equal(again?.id, id);
      assert.equal(again?.attempts, 2);
      assert.equal(again?.status, 'rendering', 'status does not go back on a retry');
      assert.equal(await lifecycle.heartbeat(deps(), id, leaseA), false, 'the old holder lost it');
      assert.equal(await lifecycle.reportProgress(deps(), id, leaseA, { phase: 'rendering', progress: 90 }), false);
      await lifecycle.reportProgress(deps(), id, leaseB, { phase: 'preparing', progress: 5 });
      assert.equal((await row(id)).progress, 60, 'progress never decreases across a retry');
      tick(31_000);
      await ageLease(id, 31_000);
      assert.equal(await lifecycle.claimNext(deps(), leaseA, 2), undefined, 'no third attempt');
      assert.deepEqual(await lifecycle.abandonedRenders(deps(), 2), [id]);
    });

    it('charges nothing in test mode and never more than the balance', async () => {
      await drain();
      const test = await seed({ credits: 100, mode: 'test', reserved: 0 });
      await lifecycle.claimNext(deps(), leaseA, 2);
      const out = { durationSec: 60, outputKey: 'k1' };
      await lifecycle.complete(deps(), test.id, leaseA, out);
      assert.equal(await balance(test.accountId), 100);
      assert.equal((await row(test.id)).chargedCredits, 0);
      assert.equal((await row(test.id)).meteredMinutes, 1, 'a test render is metered all the same');

      const poor = await seed({ credits: 3, reserved: 3 });
      await lifecycle.claimNext(deps(), leaseA, 2);
      await lifecycle.complete(deps(), poor.id, leaseA, out);
      assert.equal(await balance(poor.accountId), 0);
      assert.equal((await row(poor.id)).chargedCredits, 3);
    });

    it('prices from the row (full-size frame, drafts half) and keeps the output for the plan', async () => {
      const cases: {
        plan: Plan;
        movie: Record<string, unknown>;
        draft: boolean;
        sec: number;
        credits: number;
        days: number;
      }[] = [
        { plan: 'trial', movie: { schema: 'v1', preset: '16:9' }, draft: false, sec: 60, credits: 10, days: 30 },
        {
          plan: 'starter',
          movie: { schema: 'v1', preset: '16:9', draft: true },
          draft: true,
          sec: 60,
          credits: 5,
          days: 90,
        },
        {
          plan: 'studio',
          movie: { schema: 'v1', preset: '9:16', resolution: '2160p' },
          draft: false,
          sec: 30,
          credits: 20,
          days: 365,
        },
      ];
      for (const c of cases) {
        await drain();
        const { accountId, id } = await seed({
          credits: 500,
          reserved: 0,
          plan: c.plan,
          movie: c.movie,
          draft: c.draft,
        });
        await lifecycle.claimNext(deps(), leaseA, 2);
        assert.equal(
          await lifecycle.complete(deps(), id, leaseA, { durationSec: c.sec, outputKey: `renders/${id}.mp4` }),
          true,
        );
        const r = await row(id);
        assert.equal(r.chargedCredits, c.credits, c.plan);
        assert.equal(r.meteredMinutes, c.credits / 10, c.plan);
        assert.equal(r.expiresAt?.getTime(), clock.getTime() + c.days * 86_400_000, c.plan);
        assert.equal(await balance(accountId), 500 - c.credits, c.plan);
      }
    });

    it('completes without a lease (an executor that holds none: the operator)', async () => {
      await drain();
      const { id } = await seed();
      await lifecycle.claimNext(deps(), leaseA, 2);
      assert.equal(
        await lifecycle.complete(deps(), id, null, { durationSec: 6, outputKey: `renders/${id}.mp4` }),
        true,
      );
      const r = await row(id);
      assert.deepEqual([r.status, r.chargedCredits, r.outputKey], ['done', 1, `renders/${id}.mp4`]);
    });

    it('hands a render back on release, without spending its attempt, claimable the same instant', async () => {
      await drain();
      const { id } = await seed();
      await lifecycle.claimNext(deps(), leaseA, 2);
      assert.equal(await lifecycle.release(deps(), id, leaseA), true);
      // No tick: a lease that ends at T has ended at T (a fast machine releases and claims in one ms).
      const again = await lifecycle.claimNext(deps(), leaseB, 2);
      assert.equal(again?.id, id);
      assert.equal(again?.attempts, 1);
    });
  });
}
