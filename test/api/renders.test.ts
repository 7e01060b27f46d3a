import assert from 'node:assert/strict';
import { test } from 'node:test';
import { issueKey } from '../../api/auth/provision.ts';
import { planTable } from '../../api/billing/plans.ts';
import { setPlan } from '../../store/accounts-repo.ts';
import { complete } from '../../store/lifecycle/render-lifecycle.ts';
import { countRenders } from '../../store/renders-repo.ts';
import { MOVIE_ERROR_CASES, movie, templateBody, UNUSUAL_KEYS } from './docs.ts';
import { client, eachBackend, newAccount, startApp, testConfig } from './helpers.ts';

type Body = Record<string, unknown> & { error: { code: string; path?: string; docsUrl: string } };

test('POST/GET /v1/renders', async (t) => {
  await eachBackend(t, async (t, db) => {
    // A clock that moves 1 s per render so list filters and ordering are deterministic.
    let clock = Date.parse('2026-01-01T00:00:00.000Z');
    const app = await startApp(db, {
      config: testConfig({ plans: planTable({ concurrency: { pro: 1000, studio: 1000 } }) }),
      now: () => {
        clock += 1000;
        return new Date(clock);
      },
    });
    t.after(() => app.close());

    await t.test('creates a queued render with every field present', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const res = await api('POST', '/v1/renders', { movie: movie(60) });
      assert.equal(res.statusCode, 201);
      const r = res.json();
      assert.equal(r.status, 'queued');
      assert.equal(r.progress, 0);
      assert.equal(r.draft, false);
      assert.equal(r.watermark, false);
      assert.equal(r.fps, 30);
      assert.equal(r.format, 'mp4', 'a movie without output is an mp4');
      for (const k of [
        'outputUrl',
        'posterUrl',
        'thumbnailUrl',
        'expiresAt',
        'error',
        'durationSec',
        'meteredMinutes',
        'templateId',
        'webhookUrl',
      ]) {
        assert.equal(r[k], null, k);
      }
      assert.match(String(r.id), /^rnd_/);
      const got = await api('GET', `/v1/renders/${r.id}`);
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), r);
      const usage = (await api('GET', '/v1/usage')).json<{ credits: Record<string, number> }>();
      // 60 s at 1080p = 1 weighted minute = 10 credits reserved.
      assert.deepEqual(usage.credits, { balance: 100, reserved: 10, available: 90 });
    });

    await t.test('drafts are watermarked and reserve half', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const r = (await api('POST', '/v1/renders', { movie: movie(120, { draft: true }) })).json();
      assert.equal(r.draft, true);
      assert.equal(r.watermark, true);
      const usage = (await api('GET', '/v1/usage')).json<{ credits: Record<string, number> }>();
      assert.equal(usage.credits.reserved, 10);
    });

    await t.test("shows the movie's output format", async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const r = (await api('POST', '/v1/renders', { movie: { ...movie(3), output: { format: 'webm' } } })).json();
      assert.equal(r.format, 'webm');
      assert.equal((await api('GET', `/v1/renders/${r.id}`)).json().format, 'webm');
    });

    for (const c of MOVIE_ERROR_CASES) {
      await t.test(`${c.code} at ${c.path}, nothing stored`, async () => {
        const acc = await newAccount(db, { plan: 'pro', credits: 100 });
        const res = await client(app, acc.key)('POST', '/v1/renders', { movie: c.doc, variables: c.variables });
        assert.equal(res.statusCode, 400);
        const body = res.json<Body & { errors: Body['error'][] }>();
        assert.equal(body.error.code, c.code);
        assert.equal(body.error.path, c.path);
        assert.deepEqual(body.error, body.errors[0]);
        assert.equal(body.error.docsUrl, `http://api.test/docs/errors/${c.code}`);
        assert.equal(await countRenders(db.sql, acc.accountId), 0);
      });
    }

    await t.test('unusual keys: the same quoted path in the movie, in the request and in its variables', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const cases: { where: string; body: Record<string, unknown>; code: string; path: string }[] = [];
      for (const { key, path } of UNUSUAL_KEYS) {
        cases.push(
          { where: 'movie', body: { movie: movie(3, { [key]: 1 }) }, code: 'SCHEMA_INVALID', path },
          {
            where: 'element',
            body: {
              movie: movie(3, {
                scenes: [{ id: 's1', duration: 3, elements: [{ id: 't', type: 'text', text: 'x', [key]: 1 }] }],
              }),
            },
            code: 'SCHEMA_INVALID',
            path: `scenes[0].elements[0]${path}`,
          },
          { where: 'request', body: { movie: movie(), [key]: 1 }, code: 'VALIDATION_ERROR', path },
          {
            where: 'variables',
            body: { movie: movie(), variables: { [key]: 1 } },
            code: 'VALIDATION_ERROR',
            path: `variables${path}`,
          },
        );
      }
      for (const c of cases) {
        const res = await api('POST', '/v1/renders', c.body);
        assert.equal(res.statusCode, 400, res.body);
        const error = res.json<Body>().error;
        assert.deepEqual(
          [error.code, error.path],
          [c.code, c.path],
          `${c.where}: ${JSON.stringify(Object.keys(c.body))}`,
        );
      }
      assert.equal(await countRenders(db.sql, acc.accountId), 0);
    });

    const requestErrors: { name: string; body: unknown; headers?: Record<string, string>; path: string }[] = [
      { name: 'missing movie', body: {}, path: 'movie' },
      { name: 'movie not an object', body: { movie: 'x' }, path: 'movie' },
      { name: 'unknown body field', body: { movie: movie(), extra: 1 }, path: 'extra' },
      {
        name: 'webhook_url not http(s)',
        body: { movie: movie(), webhook_url: 'ftp://example.com/x' },
        path: 'webhook_url',
      },
      { name: 'webhook_url relative', body: { movie: movie(), webhook_url: '/hook' }, path: 'webhook_url' },
      { name: 'variables not an object', body: { movie: movie(), variables: [1] }, path: 'variables' },
      {
        name: 'value for an undeclared variable',
        body: { movie: movie(), variables: { zzz: 1 } },
        path: 'variables.zzz',
      },
      {
        name: 'Idempotency-Key too long',
        body: { movie: movie() },
        headers: { 'idempotency-key': 'k'.repeat(256) },
        path: 'headers.idempotency-key',
      },
      { name: 'malformed JSON', body: '{"movie":', headers: { 'content-type': 'application/json' }, path: '' },
      { name: 'empty JSON body', body: '', headers: { 'content-type': 'application/json' }, path: '' },
      {
        name: 'NUL character in a string',
        body: JSON.stringify({ movie: movie(3, { scenes: [{ id: 's\u0000', duration: 3, elements: [] }] }) }),
        headers: { 'content-type': 'application/json' },
        path: 'scenes[0].id',
      },
      { name: 'non-JSON content type', body: 'movie=1', headers: { 'content-type': 'text/plain' }, path: '' },
    ];
    for (const c of requestErrors) {
      await t.test(`VALIDATION_ERROR: ${c.name}`, async () => {
        const acc = await newAccount(db, { plan: 'pro', credits: 100 });
        const res = await client(app, acc.key)('POST', '/v1/renders', c.body, c.headers);
        assert.equal(res.statusCode, 400, res.body);
        const body = res.json<Body>();
        assert.equal(body.error.code, 'VALIDATION_ERROR');
        assert.equal(body.error.path ?? '', c.path);
        assert.equal(await countRenders(db.sql, acc.accountId), 0);
      });
    }

    await t.test('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const big = movie(3, {
        scenes: [{ id: 's1', duration: 3, elements: [{ id: 't', type: 'text', text: 'x'.repeat(1_100_000) }] }],
      });
      const res = await client(app, acc.key)('POST', '/v1/renders', { movie: big });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json<Body>().error.code, 'PAYLOAD_TOO_LARGE');
    });

    await t.test('WEBHOOKS_NOT_ALLOWED on trial (nothing stored); allowed on paid plans', async () => {
      const trial = await newAccount(db, { plan: 'trial' });
      const res = await client(app, trial.key)('POST', '/v1/renders', {
        movie: movie(),
        webhook_url: 'https://hooks.example.com/x',
      });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json<Body>().error.code, 'WEBHOOKS_NOT_ALLOWED');
      assert.equal(res.json<Body>().error.path, 'webhook_url');
      assert.equal(await countRenders(db.sql, trial.accountId), 0);
      const pro = await newAccount(db, { plan: 'pro', credits: 10 });
      const ok = await client(app, pro.key)('POST', '/v1/renders', {
        movie: movie(),
        webhook_url: 'https://hooks.example.com/x',
      });
      assert.equal(ok.statusCode, 201);
      assert.equal(ok.json().webhookUrl, 'https://hooks.example.com/x');
    });

    await t.test('trial renders are watermarked; INSUFFICIENT_CREDITS when short', async () => {
      const trial = await newAccount(db, { plan: 'trial', credits: 5 });
      const api = client(app, trial.key);
      const res = await api('POST', '/v1/renders', { movie: movie(60) });
      assert.equal(res.statusCode, 402);
      assert.equal(res.json<Body>().error.code, 'INSUFFICIENT_CREDITS');
      const ok = await api('POST', '/v1/renders', { movie: movie(6) });
      assert.equal(ok.statusCode, 201);
      assert.equal(ok.json().watermark, true);
    });

    await t.test('CONCURRENCY_LIMIT with Retry-After at the plan cap (trial: 1)', async () => {
      const trial = await newAccount(db, { plan: 'trial' });
      const api = client(app, trial.key);
      assert.equal((await api('POST', '/v1/renders', { movie: movie() })).statusCode, 201);
      const res = await api('POST', '/v1/renders', { movie: movie() });
      assert.equal(res.statusCode, 429);
      assert.equal(res.json<Body>().error.code, 'CONCURRENCY_LIMIT');
      assert.ok(Number(res.headers['retry-after']) >= 1);
      assert.equal(await countRenders(db.sql, trial.accountId), 1);
    });

    await t.test('test keys: no charge, always watermarked, isolated from live items', async () => {
      const live = await newAccount(db, { plan: 'pro', credits: 0 });
      const testKey = await import('../../api/auth/provision.ts').then((m) =>
        m.issueKey(db.sql, live.accountId, 'test'),
      );
      const apiTest = client(app, testKey.secret);
      const apiLive = client(app, live.key);
      const res = await apiTest('POST', '/v1/renders', { movie: movie(600) });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().watermark, true);
      const id = res.json().id;
      assert.equal((await apiLive('GET', `/v1/renders/${id}`)).statusCode, 404);
      assert.equal((await apiLive('GET', '/v1/renders')).json().total, 0);
      assert.equal((await apiTest('GET', '/v1/renders')).json().total, 1);
      const usage = (await apiTest('GET', '/v1/usage')).json<{ mode: string; credits: Record<string, number> }>();
      assert.equal(usage.mode, 'test');
      assert.deepEqual(usage.credits, { balance: 0, reserved: 0, available: 0 });
    });

    await t.test('the reservation at creation is the charge at completion for the same length', async () => {
      // One pricing function (store/lifecycle/pricing.ts priceRender) at both ends: a render that
      // runs exactly its estimated length is charged exactly what it reserved.
      const live = await newAccount(db, { plan: 'pro', credits: 1000 });
      const testKey = await issueKey(db.sql, live.accountId, 'test');
      const cases: { name: string; key: string; movie: Record<string, unknown>; credits: number }[] = [
        { name: '1080p, one minute', key: live.key, movie: movie(60), credits: 10 },
        // 42.5 s x weight 2 x half = 0.7083 weighted minutes = 7.08 credits, rounded up.
        { name: '1440p draft', key: live.key, movie: movie(42.5, { resolution: '1440p', draft: true }), credits: 8 },
        // 7 s x weight 4 = 0.4667 weighted minutes = 4.67 credits, rounded up.
        { name: '2160p portrait', key: live.key, movie: movie(7, { preset: '9:16', resolution: '2160p' }), credits: 5 },
        { name: 'test key', key: testKey.secret, movie: movie(60), credits: 0 },
      ];
      for (const c of cases) {
        const res = await client(app, c.key)('POST', '/v1/renders', { movie: c.movie });
        assert.equal(res.statusCode, 201, `${c.name}: ${res.body}`);
        const id = res.json().id as string;
        const [made] = await db.sql<{ reservedCredits: number; estimatedSec: number }[]>`
          SELECT reserved_credits, estimated_sec FROM renders WHERE id = ${id}`;
        assert.equal(made?.reservedCredits, c.credits, `${c.name}: reserved`);
        const deps = { db, now: () => new Date(clock) };
        const ok = await complete(deps, id, null, { durationSec: made.estimatedSec, outputKey: `renders/${id}.mp4` });
        assert.equal(ok, true, c.name);
        const [done] = await db.sql<{ chargedCredits: number }[]>`SELECT charged_credits FROM renders WHERE id = ${id}`;
        assert.equal(done?.chargedCredits, c.credits, `${c.name}: charged`);
      }
    });

    await t.test('another account gets NOT_FOUND for an existing render; unknown ids too', async () => {
      const a = await newAccount(db, { plan: 'pro', credits: 10 });
      const b = await newAccount(db, { plan: 'pro', credits: 10 });
      const id = (await client(app, a.key)('POST', '/v1/renders', { movie: movie() })).json().id;
      for (const rid of [id, 'rnd_doesnotexist']) {
        const res = await client(app, b.key)('GET', `/v1/renders/${rid}`);
        assert.equal(res.statusCode, 404);
        assert.equal(res.json<Body>().error.code, 'NOT_FOUND');
      }
    });

    await t.test('list: newest first, filters, pagination envelope', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 1000 });
      const api = client(app, acc.key);
      const made: { id: string; createdAt: string }[] = [];
      for (let i = 0; i < 5; i++) made.push((await api('POST', '/v1/renders', { movie: movie() })).json() as never);
      const all = (await api('GET', '/v1/renders?page_size=2')).json();
      assert.deepEqual(
        (all.items as { id: string }[]).map((r) => r.id),
        [made[4]?.id, made[3]?.id],
      );
      assert.deepEqual(
        { page: all.page, pageSize: all.pageSize, total: all.total, hasMore: all.hasMore },
        {
          page: 1,
          pageSize: 2,
          total: 5,
          hasMore: true,
        },
      );
      const last = (await api('GET', '/v1/renders?page_size=2&page=3')).json();
      assert.equal((last.items as unknown[]).length, 1);
      assert.equal(last.hasMore, false);
      const after = made[1]?.createdAt as string;
      const before = made[3]?.createdAt as string;
      const window = (await api('GET', `/v1/renders?created_after=${after}&created_before=${before}`)).json();
      assert.deepEqual(
        (window.items as { id: string }[]).map((r) => r.id),
        [made[2]?.id, made[1]?.id],
      );
      assert.equal((await api('GET', '/v1/renders?status=done')).json().total, 0);
      assert.equal((await api('GET', '/v1/renders?status=queued')).json().total, 5);
    });

    const badQueries: [string, string][] = [
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['status=finished', 'status'],
      ['created_after=yesterday', 'created_after'],
      ['created_before=2026-13-45', 'created_before'],
      ['sort=asc', 'sort'],
    ];
    for (const [query, path] of badQueries) {
      await t.test(`list VALIDATION_ERROR: ${query}`, async () => {
        const acc = await newAccount(db, { plan: 'pro' });
        const res = await client(app, acc.key)('GET', `/v1/renders?${query}`);
        assert.equal(res.statusCode, 400);
        assert.equal(res.json<Body>().error.code, 'VALIDATION_ERROR');
        assert.equal(res.json<Body>().error.path, path);
      });
    }

    await t.test('50 parallel creates on a 300-credit account never overspend', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 300 });
      const api = client(app, acc.key);
      // Each render costs 10 credits (60 s at 1080p): exactly 30 fit.
      const results = await Promise.all(
        Array.from({ length: 50 }, () => api('POST', '/v1/renders', { movie: movie(60) })),
      );
      const created = results.filter((r) => r.statusCode === 201).length;
      const refused = results.filter((r) => r.statusCode === 402).length;
      assert.equal(created, 30);
      assert.equal(refused, 20);
      const usage = (await api('GET', '/v1/usage')).json<{ credits: Record<string, number> }>();
      assert.deepEqual(usage.credits, { balance: 300, reserved: 300, available: 0 });
      assert.equal(await countRenders(db.sql, acc.accountId), 30);
    });

    await t.test('20 parallel creates never pass the concurrency cap (starter: 3)', async () => {
      const acc = await newAccount(db, { plan: 'starter', credits: 10_000 });
      const api = client(app, acc.key);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => api('POST', '/v1/renders', { movie: movie() })),
      );
      assert.equal(results.filter((r) => r.statusCode === 201).length, 3);
      assert.ok(
        results.filter((r) => r.statusCode !== 201).every((r) => r.json<Body>().error.code === 'CONCURRENCY_LIMIT'),
      );
      assert.equal(await countRenders(db.sql, acc.accountId), 3);
    });

    await t.test('a plan changed while the key is cached: the new plan decides', async () => {
      const cached = await startApp(db, { config: testConfig({ authCacheTtlMs: 60_000 }) });
      try {
        const acc = await newAccount(db, { plan: 'pro', credits: 1000 });
        const api = client(cached, acc.key);
        assert.equal((await api('GET', '/v1/usage')).statusCode, 200, 'the key is cached as pro');
        await setPlan(db.sql, acc.accountId, 'trial');
        const hook = await api('POST', '/v1/renders', { movie: movie(), webhook_url: 'https://example.com/hook' });
        assert.equal(hook.statusCode, 403);
        assert.equal(hook.json<Body>().error.code, 'WEBHOOKS_NOT_ALLOWED');
        const made = await api('POST', '/v1/renders', { movie: movie() });
        assert.equal(made.statusCode, 201);
        assert.equal(made.json().watermark, true, 'trial renders are watermarked');
        assert.equal(await countRenders(db.sql, acc.accountId), 1);
      } finally {
        await cached.close();
      }
    });

    await t.test('20 parallel requests with one Idempotency-Key create exactly one render', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 1000 });
      const api = client(app, acc.key);
      const headers = { 'idempotency-key': 'same-key-1' };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => api('POST', '/v1/renders', { movie: movie() }, headers)),
      );
      const codes = results.map((r) => r.statusCode).sort();
      assert.deepEqual(codes, [...Array(19).fill(200), 201]);
      assert.equal(new Set(results.map((r) => r.json().id)).size, 1);
      assert.equal(await countRenders(db.sql, acc.accountId), 1);
      // Same key, different body: 409, and still one render.
      const reused = await api('POST', '/v1/renders', { movie: movie(4) }, headers);
      assert.equal(reused.statusCode, 409);
      assert.equal(reused.json<Body>().error.code, 'IDEMPOTENCY_KEY_REUSED');
      assert.equal(await countRenders(db.sql, acc.accountId), 1);
      // Keys are per account: another account may use the same key.
      const other = await newAccount(db, { plan: 'pro', credits: 10 });
      assert.equal((await client(app, other.key)('POST', '/v1/renders', { movie: movie() }, headers)).statusCode, 201);
    });

    await t.test('a failed request stores nothing: the same key works after the cause is fixed', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 0 });
      const api = client(app, acc.key);
      const headers = { 'idempotency-key': 'retry-me' };
      assert.equal((await api('POST', '/v1/renders', { movie: movie(60) }, headers)).statusCode, 402);
      const { adjustCredits } = await import('../../store/accounts-repo.ts');
      await adjustCredits(db.sql, { accountId: acc.accountId, delta: 10, reason: 'grant' });
      assert.equal((await api('POST', '/v1/renders', { movie: movie(60) }, headers)).statusCode, 201);
      assert.equal((await api('POST', '/v1/renders', { movie: movie(60) }, headers)).statusCode, 200);
    });
  });
});

test('webhook_url at a private address is refused at creation unless private URLs are allowed', async (t) => {
  await eachBackend(t, async (t, db) => {
    const refusing = await startApp(db);
    const allowing = await startApp(db, { config: testConfig({ allowPrivateUrls: true }) });
    t.after(() => Promise.all([refusing.close(), allowing.close()]));
    const hooks = ['http://127.0.0.1:9/x', 'http://[::1]/x', 'http://169.254.169.254/'];

    await t.test('400 VALIDATION_ERROR at webhook_url; nothing stored, nothing reserved', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(refusing, acc.key);
      const tpl = (await api('POST', '/v1/templates', { name: 'x', body: templateBody() })).json();
      for (const webhook_url of hooks) {
        for (const [url, body] of [
          ['/v1/renders', { movie: movie(), webhook_url }],
          [`/v1/templates/${tpl.id}/renders`, { webhook_url }],
        ] as const) {
          const res = await api('POST', url, body);
          assert.equal(res.statusCode, 400, `${url} ${webhook_url}: ${res.body}`);
          assert.equal(res.json<Body>().error.code, 'VALIDATION_ERROR');
          assert.equal(res.json<Body>().error.path, 'webhook_url');
        }
      }
      const list = (await api('GET', '/v1/renders')).json<{ items: unknown[]; total: number }>();
      assert.deepEqual([list.items.length, list.total], [0, 0]);
      assert.equal(await countRenders(db.sql, acc.accountId), 0);
      const usage = (await api('GET', '/v1/usage')).json<{ credits: Record<string, number> }>();
      assert.deepEqual(usage.credits, { balance: 100, reserved: 0, available: 100 });
    });

    await t.test('accepted with ALLOW_PRIVATE_URLS', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(allowing, acc.key);
      for (const webhook_url of hooks) {
        const res = await api('POST', '/v1/renders', { movie: movie(), webhook_url });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().webhookUrl, webhook_url);
      }
    });
  });
});
