import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { adjustCredits, ledgerSum } from '../../store/accounts-repo.ts';
import type { Database } from '../../store/database.ts';
import { countScripts } from '../../store/scripts-repo.ts';
import { type Call, client, eachBackend, newAccount, startApp, testConfig } from '../../test/api/helpers.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../test/fakes/openai-server.ts';
import { makeDraft } from '../../test/fakes/script-drafts.ts';
import { issueKey } from '../auth/provision.ts';
import type { Clock } from './model-client.ts';
import type { ScriptsConfig } from './scripts-config.ts';

type Json = Record<string, unknown> & { error: { code: string; path?: string; message: string } };

/** Sleeps that return at once and move the clock, so backoff costs no test time. */
function instantClock(): Clock {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
}

async function balance(api: Call): Promise<number> {
  const usage = (await api('GET', '/v1/usage')).json<{ credits: { balance: number } }>();
  return usage.credits.balance;
}

interface Harness {
  app: FastifyInstance;
  fake: FakeOpenAI;
  /** An account of `credits` with a live key; `api` calls as that key. */
  account(credits?: number, mode?: 'live' | 'test'): Promise<{ accountId: string; api: Call; key: string }>;
}

async function harness(
  t: { after(fn: () => Promise<void> | void): void },
  db: Database,
  scripts: (fake: FakeOpenAI) => Partial<ScriptsConfig> = () => ({}),
): Promise<Harness> {
  const fake = await startFakeOpenAI();
  const app = await startApp(db, {
    config: testConfig({
      scripts: {
        model: { apiKey: 'sk-test', baseUrl: fake.url, model: 'fake-model' },
        budgetMs: 90_000,
        requestTimeoutMs: 60_000,
        clock: instantClock(),
        random: () => 1,
        ...scripts(fake),
      },
    }),
  });
  t.after(async () => {
    await app.close();
    await fake.close();
  });
  return {
    app,
    fake,
    account: async (credits = 100, mode = 'live') => {
      const acc = await newAccount(db, { plan: 'pro', credits, mode });
      return { accountId: acc.accountId, key: acc.key, api: client(app, acc.key) };
    },
  };
}

test('POST /v1/scripts, GET /v1/scripts/{id}, POST /v1/scripts/{id}/movie', async (t) => {
  await eachBackend(t, async (t, db) => {
    const h = await harness(t, db);

    await t.test('a good draft: 201 with every field, charged max(2, ceil(12/4)) = 3', async () => {
      const { api, accountId } = await h.account(100);
      h.fake.reset({ reply: makeDraft({ scenes: 12 }), usage: { prompt_tokens: 800, completion_tokens: 1200 } });
      const res = await api('POST', '/v1/scripts', {
        brief: 'A film about a lighthouse keeper',
        visualStyle: 'oil painting',
      });
      assert.equal(res.statusCode, 201, res.body);
      const s = res.json<Json & { scenes: { index: number; imagePrompt: string }[]; meta: Record<string, unknown> }>();
      assert.match(String(s.id), /^scr_/);
      assert.equal(s.title, 'The Keeper of the Light');
      assert.equal(typeof s.description, 'string');
      assert.equal(s.scenes.length, 12);
      assert.deepEqual(
        s.scenes.map((x) => x.index),
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      assert.ok(s.scenes.every((x) => x.imagePrompt.includes('oil painting')));
      assert.equal(s.meta.model, 'fake-model');
      assert.equal(s.meta.attempts, 1);
      assert.equal(s.meta.language, 'English');
      assert.equal(s.meta.creditsCharged, 3);
      assert.deepEqual(s.meta.usage, { promptTokens: 800, completionTokens: 1200, totalTokens: 2000 });
      assert.equal(typeof s.meta.generationMs, 'number');
      assert.deepEqual((s.meta.constraints as Record<string, unknown>).sceneCount, { min: 10, max: 14 });
      assert.ok(!Number.isNaN(Date.parse(String(s.createdAt))));
      assert.equal(await balance(api), 97);
      assert.equal(await ledgerSum(db.sql, accountId), 97);

      const got = await api('GET', `/v1/scripts/${s.id}`);
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), s);
    });

    await t.test('a wrong scene count is repaired on attempt 2 and charged for 8 scenes', async () => {
      const { api } = await h.account(100);
      h.fake.reset({ reply: makeDraft({ scenes: 5 }) }, { reply: makeDraft({ scenes: 8 }) });
      const res = await api('POST', '/v1/scripts', { brief: 'Lighthouses', sceneCount: 8 });
      assert.equal(res.statusCode, 201, res.body);
      const s = res.json<Json & { scenes: unknown[]; meta: { attempts: number; creditsCharged: number } }>();
      assert.equal(s.scenes.length, 8);
      assert.equal(s.meta.attempts, 2);
      assert.equal(s.meta.creditsCharged, 2);
      assert.equal(h.fake.requests.length, 2);
      assert.match(h.fake.requests[1]?.body.messages.at(-1).content, /has 5 scenes; it must have exactly 8/);
      assert.equal(await balance(api), 98);
    });

    await t.test('drafts that never comply: LLM_FAILED 502, nothing stored, balance unchanged', async () => {
      const { api, accountId } = await h.account(50);
      const bad = makeDraft({ scenes: 3, words: 80 });
      h.fake.reset({ reply: bad }, { reply: bad }, { reply: bad });
      const res = await api('POST', '/v1/scripts', { brief: 'b', sceneCount: 3, wordsPerScene: { min: 10, max: 40 } });
      assert.equal(res.statusCode, 502);
      const body = res.json<Json>();
      assert.equal(body.error.code, 'LLM_FAILED');
      assert.match(body.error.message, /3 drafts.*80 words; it must have between 10 and 40/);
      assert.equal(h.fake.requests.length, 3);
      assert.equal(await balance(api), 50);
      assert.equal(await ledgerSum(db.sql, accountId), 50);
      assert.equal(await countScripts(db.sql, accountId), 0);
    });

    await t.test('provider 500s then success: retried, one script, charged once', async () => {
      const { api } = await h.account(10);
      h.fake.reset({ status: 500 }, { status: 503 }, { status: 429 }, { reply: makeDraft({ scenes: 10 }) });
      const res = await api('POST', '/v1/scripts', { brief: 'b' });
      assert.equal(res.statusCode, 201, res.body);
      const s = res.json<Json & { meta: { providerRequests: number; attempts: number } }>();
      assert.equal(s.meta.providerRequests, 4);
      assert.equal(s.meta.attempts, 1);
      assert.equal(await balance(api), 7);
    });

    await t.test('idempotent replay: same key and body -> the original with 200, no second generation', async () => {
      const { api, accountId } = await h.account(100);
      h.fake.reset({ reply: makeDraft({ scenes: 4 }) });
      const body = { brief: 'Replay me', sceneCount: 4 };
      const headers = { 'idempotency-key': 'script-key-1' };
      const first = await api('POST', '/v1/scripts', body, headers);
      assert.equal(first.statusCode, 201, first.body);
      const again = await api('POST', '/v1/scripts', body, headers);
      assert.equal(again.statusCode, 200);
      assert.deepEqual(again.json(), first.json());
      assert.equal(h.fake.requests.length, 1);
      assert.equal(await balance(api), 98);
      assert.equal(await countScripts(db.sql, accountId), 1);

      const other = await api('POST', '/v1/scripts', { ...body, sceneCount: 5 }, headers);
      assert.equal(other.statusCode, 409);
      assert.equal(other.json<Json>().error.code, 'IDEMPOTENCY_KEY_REUSED');
      assert.equal(h.fake.requests.length, 1, 'a conflicting request never reaches the model');
      assert.equal(await balance(api), 98);
    });

    await t.test('parallel duplicates with one key: one script, charged once, the other replays it', async () => {
      const { api, accountId } = await h.account(100);
      // Both requests reach the model before either stores: the slower one must replay the first.
      h.fake.reset({ reply: makeDraft({ scenes: 4 }), delayMs: 50 }, { reply: makeDraft({ scenes: 4 }), delayMs: 150 });
      const body = { brief: 'Twice at once', sceneCount: 4 };
      const headers = { 'idempotency-key': 'parallel-key' };
      const [a, b] = await Promise.all([
        api('POST', '/v1/scripts', body, headers),
        api('POST', '/v1/scripts', body, headers),
      ]);
      assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 201]);
      assert.equal(a.json<Json>().id, b.json<Json>().id);
      assert.equal(h.fake.requests.length, 2);
      assert.equal(await countScripts(db.sql, accountId), 1);
      assert.equal(await balance(api), 98);
    });

    await t.test('a failed request with a key stores nothing: the same key may be retried', async () => {
      const { api } = await h.account(100);
      h.fake.reset({ status: 401, message: 'bad key' }, { reply: makeDraft({ scenes: 2 }) });
      const headers = { 'idempotency-key': 'retry-after-failure' };
      const failed = await api('POST', '/v1/scripts', { brief: 'b', sceneCount: 2 }, headers);
      assert.equal(failed.statusCode, 502);
      const retried = await api('POST', '/v1/scripts', { brief: 'b', sceneCount: 2 }, headers);
      assert.equal(retried.statusCode, 201, retried.body);
    });

    await t.test('INSUFFICIENT_CREDITS before the model is called, against the largest charge', async () => {
      const { api } = await h.account(3);
      h.fake.reset({ reply: makeDraft({ scenes: 8 }) });
      const res = await api('POST', '/v1/scripts', { brief: 'b' });
      assert.equal(res.statusCode, 402);
      assert.equal(res.json<Json>().error.code, 'INSUFFICIENT_CREDITS');
      assert.match(res.json<Json>().error.message, /up to 14 scenes can cost 4 credits; 3 are available/);
      assert.equal(h.fake.requests.length, 0);
      // 8 scenes cost at most 2: the same balance is enough.
      const ok = await api('POST', '/v1/scripts', { brief: 'b', sceneCount: 8 });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.equal(await balance(api), 1);
    });

    await t.test('credits spent while the model writes: INSUFFICIENT_CREDITS at storing, nothing stored', async () => {
      const { api, accountId } = await h.account(4);
      // While the model "writes", another request spends the balance down to 1 credit.
      h.fake.reset(async () => {
        await adjustCredits(db.sql, { accountId, delta: -3, reason: 'test' });
        return { reply: makeDraft({ scenes: 12 }) };
      });
      const res = await api('POST', '/v1/scripts', { brief: 'b' });
      assert.equal(res.statusCode, 402, res.body);
      assert.equal(res.json<Json>().error.code, 'INSUFFICIENT_CREDITS');
      assert.equal(await countScripts(db.sql, accountId), 0);
      assert.equal(await balance(api), 1);
    });

    const invalid: [string, Record<string, unknown>, string][] = [
      ['unknown field', { brief: 'b', scenes: [] }, 'scenes'],
      ['missing brief', { sceneCount: 3 }, 'brief'],
      ['sceneCount 51', { brief: 'b', sceneCount: 51 }, 'sceneCount'],
      ['targetDurationSec 4', { brief: 'b', targetDurationSec: 4 }, 'targetDurationSec'],
      ['wordsPerScene empty', { brief: 'b', wordsPerScene: {} }, 'wordsPerScene'],
      ['wordsPerScene.max 501', { brief: 'b', wordsPerScene: { max: 501 } }, 'wordsPerScene.max'],
      ['wordsPerScene min > max', { brief: 'b', wordsPerScene: { min: 9, max: 8 } }, 'wordsPerScene.min'],
      ['blank brief', { brief: '  ' }, 'brief'],
      ['sourceMaterial too long', { brief: 'b', sourceMaterial: 'x'.repeat(30001) }, 'sourceMaterial'],
    ];
    for (const [name, body, path] of invalid) {
      await t.test(`VALIDATION_ERROR at ${path}: ${name}; no model call`, async () => {
        const { api } = await h.account(100);
        h.fake.reset();
        const res = await api('POST', '/v1/scripts', body);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json<Json>().error.code, 'VALIDATION_ERROR');
        assert.equal(res.json<Json>().error.path, path);
        assert.equal(h.fake.requests.length, 0);
      });
    }

    await t.test('GET: 404 for another account and for the other key mode', async () => {
      const owner = await h.account(100);
      h.fake.reset({ reply: makeDraft({ scenes: 2 }) });
      const s = (await owner.api('POST', '/v1/scripts', { brief: 'b', sceneCount: 2 })).json<Json>();
      const stranger = await h.account(100);
      const res = await stranger.api('GET', `/v1/scripts/${s.id}`);
      assert.equal(res.statusCode, 404);
      assert.equal(res.json<Json>().error.code, 'NOT_FOUND');
      const testKey = await issueKey(db.sql, owner.accountId, 'test');
      assert.equal((await client(h.app, testKey.secret)('GET', `/v1/scripts/${s.id}`)).statusCode, 404);
      assert.equal((await owner.api('GET', '/v1/scripts/scr_nope')).statusCode, 404);
      assert.equal((await stranger.api('POST', `/v1/scripts/${s.id}/movie`, {})).statusCode, 404);
    });

    await t.test('test-mode keys generate but are never charged', async () => {
      const { api } = await h.account(5, 'test');
      h.fake.reset({ reply: makeDraft({ scenes: 12 }) });
      const res = await api('POST', '/v1/scripts', { brief: 'b' });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json<Json & { meta: { creditsCharged: number } }>().meta.creditsCharged, 0);
      assert.equal(await balance(api), 5);
    });

    await t.test('script -> movie: a valid document that POST /v1/renders accepts', async () => {
      const { api } = await h.account(100);
      h.fake.reset({ reply: makeDraft({ scenes: 3 }) });
      const s = (await api('POST', '/v1/scripts', { brief: 'b', sceneCount: 3, language: 'en-GB' })).json<Json>();
      const res = await api('POST', `/v1/scripts/${s.id}/movie`, { preset: '9:16' });
      assert.equal(res.statusCode, 200, res.body);
      const movie = res.json<{ preset: string; scenes: { duration: string; elements: Record<string, unknown>[] }[] }>();
      assert.equal(movie.preset, '9:16');
      assert.equal(movie.scenes.length, 3);
      assert.ok(movie.scenes.every((sc) => sc.duration === 'voice'));
      assert.equal(movie.scenes[0]?.elements[0]?.text, 'The Keeper of the Light');
      assert.equal(movie.scenes[0]?.elements[1]?.language, 'en-GB');
      assert.equal(movie.scenes[0]?.elements[1]?.voiceId, 'espeak-en-gb');
      const render = await api('POST', '/v1/renders', { movie });
      assert.equal(render.statusCode, 201, render.body);

      const noBody = await api('POST', `/v1/scripts/${s.id}/movie`);
      assert.equal(noBody.statusCode, 200, noBody.body);
      assert.equal(noBody.json<{ preset: string }>().preset, '16:9');
      const bad = await api('POST', `/v1/scripts/${s.id}/movie`, { voiceId: 'espeak-klingon' });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json<Json>().error.path, 'voiceId');
      const mismatch = await api('POST', `/v1/scripts/${s.id}/movie`, { voiceId: 'espeak-de-de', language: 'ja-JP' });
      assert.equal(mismatch.statusCode, 400);
      assert.equal(mismatch.json<Json>().error.path, 'voiceId');
    });
  });
});

test('POST /v1/scripts: a slow provider hits the budget; no model configured', async (t) => {
  await eachBackend(t, async (t, db) => {
    await t.test('a slow provider: LLM_FAILED within the budget, nothing charged', async (st) => {
      // Real clock: the request timeout is real time, so a 300 ms budget keeps this fast.
      const h = await harness(st, db, () => ({ budgetMs: 300, requestTimeoutMs: 300, clock: undefined }));
      const { api, accountId } = await h.account(20);
      h.fake.reset({ reply: makeDraft(), delayMs: 20_000 });
      const t0 = Date.now();
      const res = await api('POST', '/v1/scripts', { brief: 'b' });
      const took = Date.now() - t0;
      assert.equal(res.statusCode, 502);
      assert.equal(res.json<Json>().error.code, 'LLM_FAILED');
      assert.match(res.json<Json>().error.message, /300 ms budget ran out.*no answer within/);
      assert.ok(took < 5000, `took ${took} ms`);
      assert.equal(await balance(api), 20);
      assert.equal(await countScripts(db.sql, accountId), 0);
    });

    await t.test('no model configured: LLM_FAILED naming the settings', async (st) => {
      const h = await harness(st, db, () => ({ model: null }));
      const { api } = await h.account(20);
      const res = await api('POST', '/v1/scripts', { brief: 'b' });
      assert.equal(res.statusCode, 502);
      const message = res.json<Json>().error.message;
      for (const v of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'SCRIPT_MODEL']) assert.match(message, new RegExp(v));
      assert.equal(await balance(api), 20);
    });
  });
});
