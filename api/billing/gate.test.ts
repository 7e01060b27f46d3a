import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError, type ERROR_CATALOG } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { OUTPUT_FORMATS } from '../../lib/output-formats.ts';
import { type Movie, outputFrame } from '../../movie/index.ts';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import type { Database } from '../../store/database.ts';
import { priceRender } from '../../store/lifecycle/pricing.ts';
import { type GateReason, insertRender, insertRenderIfAllowed, type NewRender } from '../../store/renders-repo.ts';
import type { KeyMode, Plan, RenderStatus } from '../../store/types.ts';
import { eachBackend, newAccount } from '../../test/api/helpers.ts';
import { chargeCredits, gateError, gateRules, withAccountLock } from './gate.ts';
import { planTable } from './plans.ts';

/**
 * The creation gate is decided by framewright_create_render alone (migration 0209); TypeScript maps
 * its reason to an error. The one decision still made in TypeScript as well is the credit check of
 * an immediate charge (chargeCredits: scripts), so every case the credits decide is fed to it too.
 */

// trial 1, starter 3 (the defaults), pro 2 here, so a case can fill a cap with few rows.
const PLANS = planTable({ concurrency: { pro: 2 } });

interface Other {
  reserved: number;
  status?: RenderStatus;
  mode?: KeyMode;
}

interface Case {
  name: string;
  plan: Plan;
  balance: number;
  /** Renders the account already has. */
  others?: Other[];
  mode?: KeyMode;
  draft?: boolean;
  /** Movie length in seconds: 60 s at 1080p is 10 credits, a draft of it 5. */
  sec?: number;
  webhook?: boolean;
  missingAccount?: boolean;
  want: GateReason;
  /** What the error says (for refusals). */
  message?: string;
  watermark?: boolean;
}

const CASES: Case[] = [
  { name: 'exactly enough credits', plan: 'pro', balance: 10, want: 'ok', watermark: false },
  {
    name: 'one credit short',
    plan: 'pro',
    balance: 9,
    want: 'insufficient_credits',
    message: 'This render needs an estimated 10 credits; 9 are available.',
  },
  {
    name: 'exactly enough beside a reservation',
    plan: 'pro',
    balance: 30,
    others: [{ reserved: 20 }],
    want: 'ok',
  },
  {
    name: 'one short beside a reservation',
    plan: 'pro',
    balance: 29,
    others: [{ reserved: 20 }],
    want: 'insufficient_credits',
    message: 'This render needs an estimated 10 credits; 9 are available.',
  },
  {
    name: 'preparing and rendering renders reserve too',
    plan: 'starter',
    balance: 29,
    others: [
      { reserved: 10, status: 'preparing' },
      { reserved: 10, status: 'rendering' },
    ],
    want: 'insufficient_credits',
    message: 'This render needs an estimated 10 credits; 9 are available.',
  },
  {
    name: 'finished renders hold neither credits nor a slot',
    plan: 'pro',
    balance: 10,
    others: [
      { reserved: 50, status: 'done' },
      { reserved: 50, status: 'failed' },
    ],
    want: 'ok',
  },
  {
    name: 'reservations above the balance: none available',
    plan: 'pro',
    balance: 10,
    others: [{ reserved: 15 }],
    want: 'insufficient_credits',
    message: 'This render needs an estimated 10 credits; 0 are available.',
  },
  {
    name: 'cap minus one',
    plan: 'starter',
    balance: 100,
    others: [{ reserved: 0 }, { reserved: 0, status: 'rendering' }],
    want: 'ok',
  },
  {
    name: 'cap reached',
    plan: 'starter',
    balance: 100,
    others: [{ reserved: 0 }, { reserved: 0, status: 'preparing' }, { reserved: 0, status: 'rendering' }],
    want: 'concurrency',
    message: 'The starter plan allows 3 render(s) queued or in progress at once; 3 are. Retry when one finishes.',
  },
  {
    name: 'the cap counts test-mode renders',
    plan: 'pro',
    balance: 100,
    others: [{ reserved: 0 }, { reserved: 0, mode: 'test' }],
    want: 'concurrency',
    message: 'The pro plan allows 2 render(s) queued or in progress at once; 2 are. Retry when one finishes.',
  },
  {
    name: 'cap reached and short: the cap answers',
    plan: 'trial',
    balance: 0,
    others: [{ reserved: 0 }],
    want: 'concurrency',
    message: 'The trial plan allows 1 render(s) queued or in progress at once; 1 are. Retry when one finishes.',
  },
  {
    name: 'a test-mode key with no credits: free, watermarked',
    plan: 'pro',
    balance: 0,
    mode: 'test',
    want: 'ok',
    watermark: true,
  },
  {
    name: 'a test-mode key still meets the cap',
    plan: 'trial',
    balance: 0,
    mode: 'test',
    others: [{ reserved: 0, mode: 'test' }],
    want: 'concurrency',
    message: 'The trial plan allows 1 render(s) queued or in progress at once; 1 are. Retry when one finishes.',
  },
  { name: 'a draft reserves half: exactly enough', plan: 'pro', balance: 5, draft: true, want: 'ok', watermark: true },
  {
    name: 'a draft one short',
    plan: 'pro',
    balance: 4,
    draft: true,
    want: 'insufficient_credits',
    message: 'This render needs an estimated 5 credits; 4 are available.',
  },
  {
    name: 'the same movie as a full render on the draft budget',
    plan: 'pro',
    balance: 5,
    want: 'insufficient_credits',
    message: 'This render needs an estimated 10 credits; 5 are available.',
  },
  {
    name: 'a fraction of a minute rounds up (6.5 s = 1.08 credits: 2)',
    plan: 'pro',
    balance: 1,
    sec: 6.5,
    want: 'insufficient_credits',
    message: 'This render needs an estimated 2 credits; 1 are available.',
  },
  { name: 'trial renders are watermarked', plan: 'trial', balance: 10, want: 'ok', watermark: true },
  {
    name: 'a webhook on trial',
    plan: 'trial',
    balance: 100,
    webhook: true,
    want: 'webhooks_not_allowed',
    message: 'The trial plan cannot use webhook_url. Poll GET /v1/renders/{id} or upgrade the plan.',
  },
  {
    name: 'a webhook on trial with the cap reached: the webhook answers',
    plan: 'trial',
    balance: 100,
    webhook: true,
    others: [{ reserved: 0 }],
    want: 'webhooks_not_allowed',
    message: 'The trial plan cannot use webhook_url. Poll GET /v1/renders/{id} or upgrade the plan.',
  },
  { name: 'a webhook on starter', plan: 'starter', balance: 10, webhook: true, want: 'ok', watermark: false },
  {
    name: 'the account is gone',
    plan: 'pro',
    balance: 100,
    missingAccount: true,
    want: 'no_account',
    message: 'The account of this API key no longer exists.',
  },
];

const WANT_CODE: Record<Exclude<GateReason, 'ok'>, keyof typeof ERROR_CATALOG> = {
  no_account: 'UNAUTHORIZED',
  unknown_plan: 'INTERNAL',
  webhooks_not_allowed: 'WEBHOOKS_NOT_ALLOWED',
  concurrency: 'CONCURRENCY_LIMIT',
  insufficient_credits: 'INSUFFICIENT_CREDITS',
};

function movieOf(c: Case): Movie {
  return {
    schema: 'v1',
    preset: '16:9',
    ...(c.draft ? { draft: true } : {}),
    scenes: [{ id: 's1', duration: c.sec ?? 60, elements: [] }],
  } as unknown as Movie;
}

/** An account in the case's state, and the render the case asks for, priced as the API prices it. */
async function arrange(db: Database, c: Case): Promise<{ accountId: string; row: Omit<NewRender, 'watermark'> }> {
  const mode = c.mode ?? 'live';
  const acc = await newAccount(db, { plan: c.plan, credits: c.balance, mode });
  for (const o of c.others ?? []) {
    const other = await insertRender(db.sql, {
      ...renderOf(acc.accountId, acc.keyId, o.mode ?? 'live', { ...c, draft: false }),
      watermark: false,
      reservedCredits: o.reserved,
    });
    if (o.status) await db.sql`UPDATE renders SET status = ${o.status} WHERE id = ${other.id}`;
  }
  return { accountId: acc.accountId, row: renderOf(c.missingAccount ? 'acc_gone' : acc.accountId, acc.keyId, mode, c) };
}

function renderOf(accountId: string, keyId: string, mode: KeyMode, c: Case): Omit<NewRender, 'watermark'> {
  const movie = movieOf(c);
  const draft = c.draft === true;
  const frame = outputFrame(movie, { draft });
  const sec = c.sec ?? 60;
  return {
    id: newId('rnd'),
    accountId,
    mode,
    keyId,
    draft,
    movie,
    outputFormat: 'mp4',
    width: frame.width,
    height: frame.height,
    fps: frame.fps,
    estimatedSec: sec,
    reservedCredits: priceRender(
      { movie, outputFormat: 'mp4', draft, mode, width: frame.width, height: frame.height },
      sec,
    ).credits,
    templateId: null,
    webhookUrl: c.webhook ? 'https://example.com/hook' : null,
    createdAt: new Date(),
  };
}

test('the creation gate: one table of boundary cases', async (t) => {
  await eachBackend(t, async (t, db) => {
    const rules = gateRules(PLANS);
    const count = async (accountId: string) =>
      (await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM renders WHERE account_id = ${accountId}`)[0]?.n;

    for (const c of CASES) {
      await t.test(c.name, async () => {
        // Alone (no Idempotency-Key: one round trip) and inside the account-locked transaction
        // (an Idempotency-Key), each on an account of its own in the same state.
        for (const path of ['alone', 'in a transaction'] as const) {
          const { accountId, row } = await arrange(db, c);
          const before = await count(accountId);
          const decide = () =>
            path === 'alone'
              ? insertRenderIfAllowed(db.sql, row, rules)
              : db.sql.begin((tx) => insertRenderIfAllowed(tx, row, rules));
          const decision = await decide();
          assert.equal(decision.reason, c.want, path);
          if (c.want === 'ok') {
            assert.equal(decision.render?.id, row.id, path);
            if (c.watermark !== undefined) assert.equal(decision.render?.watermark, c.watermark, path);
            const [stored] = await db.sql<{ watermark: boolean; reservedCredits: number }[]>`
              SELECT watermark, reserved_credits FROM renders WHERE id = ${row.id}`;
            assert.equal(stored?.watermark, decision.render?.watermark, `${path}: the stored watermark`);
            assert.equal(stored?.reservedCredits, row.reservedCredits, path);
            continue;
          }
          assert.equal(decision.render, undefined, path);
          assert.equal(await count(accountId), before, `${path}: nothing stored`);
          const err = gateError(decision, row.reservedCredits);
          assert.ok(err instanceof AppError);
          assert.equal(err.code, WANT_CODE[c.want], path);
          assert.equal(err.message, c.message, path);
          if (c.want === 'concurrency') assert.equal(err.headers?.['retry-after'], '15');
          if (c.want === 'webhooks_not_allowed') assert.equal(err.path, 'webhook_url');
        }
      });
    }

    await t.test('an immediate charge (chargeCredits) decides the credit cases the same way', async () => {
      // Only the credits decide these; the cap and the webhook rule are the gate's alone.
      const creditCases = CASES.filter(
        (c) => !c.missingAccount && (c.want === 'ok' || c.want === 'insufficient_credits') && !c.webhook,
      );
      assert.ok(creditCases.length >= 10);
      for (const c of creditCases) {
        const { accountId, row } = await arrange(db, c);
        const charged = await withAccountLock(db, accountId, (tx, account) =>
          chargeCredits(tx, account, { amount: row.reservedCredits, reason: 'gate-test' }),
        ).then(
          () => 'ok' as const,
          (err: unknown) => {
            assert.ok(err instanceof AppError && err.code === 'INSUFFICIENT_CREDITS', String(err));
            return 'insufficient_credits' as const;
          },
        );
        assert.equal(charged, c.want, c.name);
      }
    });

    await t.test(
      'the previous release still creates renders during a rolling upgrade (0209 signature kept), each with its format',
      async () => {
        // The call of the release before 0212, verbatim (store/renders-repo.ts insertRenderIfAllowed at
        // 0211): no format passed, so the database reads it from the movie as movieOutputFormat does.
        const { accountId, row } = await arrange(db, { name: 'old release', plan: 'pro', balance: 1000, want: 'ok' });
        const formats = [undefined, ...OUTPUT_FORMATS];
        for (const format of formats) {
          const movie = { ...(row.movie as Record<string, unknown>), ...(format ? { output: { format } } : {}) };
          const id = newId('rnd');
          const [made] = await db.sql<{ reason: string }[]>`
            SELECT reason FROM framewright_create_render(${id}, ${row.accountId}, ${row.mode}, ${row.keyId},
              ${row.draft}, ${db.sql.json(movie as never)}, ${row.width}, ${row.height}, ${row.fps},
              ${row.estimatedSec}, ${row.reservedCredits}, ${row.templateId}, ${row.webhookUrl}, ${row.createdAt},
              ${db.sql.json(rules as never)})`;
          assert.equal(made?.reason, 'ok', String(format));
          const [stored] = await db.sql<{ outputFormat: string }[]>`SELECT output_format FROM renders WHERE id = ${id}`;
          assert.equal(stored?.outputFormat, movieOutputFormat(movie), `the format of a movie asking ${format}`);
          // Finished, so that the plan's concurrency leaves room for the next.
          await db.sql`UPDATE renders SET status = 'done' WHERE id = ${id}`;
        }
        assert.equal(await count(accountId), formats.length);
      },
    );

    await t.test('a plan the configuration does not know is an internal error, not a pass', async () => {
      const { row } = await arrange(db, { name: 'unknown plan', plan: 'studio', balance: 100, want: 'unknown_plan' });
      const { studio: _, ...withoutStudio } = rules;
      const decision = await insertRenderIfAllowed(db.sql, row, withoutStudio);
      assert.equal(decision.reason, 'unknown_plan');
      assert.equal(gateError(decision, row.reservedCredits).code, 'INTERNAL');
    });
  });
});

test('gateRules: the plan table the database decides with, built once per table', () => {
  const rules = gateRules(PLANS);
  assert.equal(gateRules(PLANS), rules, 'the same object for the same table');
  assert.deepEqual(rules, {
    trial: { concurrency: 1, webhooks: false, watermark: true },
    starter: { concurrency: 3, webhooks: true, watermark: false },
    pro: { concurrency: 2, webhooks: true, watermark: false },
    studio: { concurrency: 25, webhooks: true, watermark: false },
  });
});
