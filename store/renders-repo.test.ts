import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../lib/ids.ts';
import { eachBackend, newAccount } from '../test/api/helpers.ts';
import {
  type GatePlanRules,
  type GateReason,
  getRender,
  insertRender,
  insertRenderIfAllowed,
  type NewRender,
} from './renders-repo.ts';

const PLANS = {
  starter: { concurrency: 3, webhooks: true, watermark: false },
  pro: { concurrency: 10, webhooks: true, watermark: false },
} satisfies Record<string, GatePlanRules>;

const newRender = (accountId: string, keyId: string, over: Partial<NewRender> = {}): NewRender => ({
  id: newId('rnd'),
  accountId,
  mode: 'live',
  keyId,
  draft: false,
  watermark: true,
  movie: { schema: 'v1', preset: '16:9', scenes: [{ id: 's1', duration: 2.5, elements: [] }] },
  outputFormat: 'mp4',
  width: 1920,
  height: 1080,
  fps: 30,
  estimatedSec: 2.5,
  reservedCredits: 5,
  templateId: null,
  webhookUrl: 'https://example.com/hook',
  // Microsecond precision in the database, milliseconds here: a whole-millisecond time compares.
  createdAt: new Date('2026-05-01T10:20:30.123Z'),
  ...over,
});

test('renders repository', async (t) => {
  await eachBackend(t, async (t, db) => {
    await t.test('the one-round-trip insert returns exactly the row the database stored', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 1000 });
      const r = newRender(acc.accountId, acc.keyId, { templateId: 'tpl_x' });
      const decision = await insertRenderIfAllowed(db.sql, r, PLANS);
      assert.equal(decision.reason, 'ok');
      const made = decision.render;
      assert.ok(made, 'inserted');
      const stored = await getRender(db.sql, { accountId: acc.accountId, mode: 'live' }, r.id);
      // Every column of RenderRow, read back, equals what was built without reading it.
      const picked = Object.fromEntries(
        Object.keys(made).map((k) => [k, (stored as unknown as Record<string, unknown>)[k]]),
      );
      assert.deepEqual(picked, made);
      // ...and the builder knows every RenderRow field the transactional insert returns.
      const viaTx = await insertRender(db.sql, newRender(acc.accountId, acc.keyId));
      for (const k of Object.keys(viaTx).filter((k) => !(k in made))) {
        assert.ok(
          ['attempts', 'leaseOwner', 'leaseExpiresAt', 'outputKey', 'outputDeletedAt', 'workSweptAt'].includes(k),
          `column ${k} is missing from queuedRenderRow`,
        );
      }
    });

    await t.test('refused (webhooks, cap, credits, unknown account, unknown plan): nothing stored', async () => {
      const acc = await newAccount(db, { plan: 'starter', credits: 10 });
      const owner = { accountId: acc.accountId, mode: 'live' as const };
      const starter = (over: Partial<GatePlanRules>) => ({ ...PLANS, starter: { ...PLANS.starter, ...over } });
      const cases: [GateReason, NewRender, Record<string, GatePlanRules>][] = [
        ['webhooks_not_allowed', newRender(acc.accountId, acc.keyId), starter({ webhooks: false })],
        ['insufficient_credits', newRender(acc.accountId, acc.keyId, { reservedCredits: 11 }), PLANS],
        ['concurrency', newRender(acc.accountId, acc.keyId), starter({ concurrency: 0 })],
        ['no_account', newRender('acc_missing', acc.keyId), PLANS],
        ['unknown_plan', newRender(acc.accountId, acc.keyId), { pro: PLANS.pro }],
      ];
      for (const [why, r, plans] of cases) {
        const decision = await insertRenderIfAllowed(db.sql, r, plans);
        assert.equal(decision.reason, why);
        assert.equal(decision.render, undefined, why);
        assert.equal(await getRender(db.sql, owner, r.id), undefined, why);
      }
      const ok = await insertRenderIfAllowed(
        db.sql,
        newRender(acc.accountId, acc.keyId, { reservedCredits: 10 }),
        starter({ concurrency: 1 }),
      );
      assert.equal(ok.reason, 'ok');
      assert.ok(await getRender(db.sql, owner, ok.render?.id ?? ''));
    });
  });
});
