import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey } from '../../api/auth/api-key.ts';
import { planTable } from '../../api/billing/plans.ts';
import { RedisRateLimiter } from '../../api/rate-limit/redis-limiter.ts';
import { newId } from '../../lib/ids.ts';
import { setPlan } from '../../store/accounts-repo.ts';
import { revokeKey, rollKey } from '../../store/api-keys-repo.ts';
import type { Database } from '../../store/database.ts';
import { startTcpProxy } from '../services/tcp-proxy.ts';
import { movie } from './docs.ts';
import { client, eachBackend, newAccount, startApp, testConfig } from './helpers.ts';

type Body = { error: { code: string }; requestId: string };

test('authentication', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db, { config: testConfig({ authFailuresPerMinute: 10_000 }) });
    t.after(() => app.close());

    await t.test('every failure answers the byte-identical 401 envelope', async () => {
      const acc = await newAccount(db, { plan: 'pro' });
      const revoked = await newAccount(db, { plan: 'pro' });
      await revokeKey(db.sql, revoked.keyId);
      const cases: [string, Record<string, string>][] = [
        ['missing header', {}],
        ['wrong scheme', { authorization: `Basic ${acc.key}` }],
        ['empty bearer', { authorization: 'Bearer ' }],
        ['malformed key', { authorization: 'Bearer fw_live_short' }],
        ['unknown key', { authorization: `Bearer ${generateApiKey('live').secret}` }],
        ['revoked key', { authorization: `Bearer ${revoked.key}` }],
        [
          'key with a changed character',
          { authorization: `Bearer ${acc.key.slice(0, -1)}${acc.key.endsWith('a') ? 'b' : 'a'}` },
        ],
      ];
      const bodies = new Set<string>();
      for (const [name, headers] of cases) {
        const res = await client(app, null)('GET', '/v1/usage', undefined, headers);
        assert.equal(res.statusCode, 401, name);
        const body = res.json<Body>();
        assert.equal(body.requestId, res.headers['x-request-id']);
        assert.equal(res.headers['x-ratelimit-limit'], undefined, 'no rate-limit headers before auth');
        bodies.add(res.body.replace(body.requestId, 'REQ'));
      }
      assert.equal(bodies.size, 1, [...bodies].join('\n'));
      assert.equal((await client(app, acc.key)('GET', '/v1/usage')).statusCode, 200);
    });

    await t.test('no failure kind answers measurably faster or slower than another', async () => {
      const acc = await newAccount(db, { plan: 'pro' });
      const revoked = await newAccount(db, { plan: 'pro' });
      await revokeKey(db.sql, revoked.keyId);
      const kinds: [string, Record<string, string>][] = [
        ['missing header', {}],
        ['malformed key', { authorization: 'Bearer fw_live_short' }],
        ['unknown key', { authorization: `Bearer ${generateApiKey('live').secret}` }],
        ['revoked key', { authorization: `Bearer ${revoked.key}` }],
        ['one character off', { authorization: `Bearer ${acc.key.slice(0, -1)}${acc.key.endsWith('a') ? 'b' : 'a'}` }],
      ];
      // Measured in rounds: each round sends every kind once, in a shuffled order, and each time
      // is taken relative to its round's median. A busy machine slows a whole round alike, so
      // its drift cancels in the pairing instead of landing on whichever kind was unlucky; the
      // median over many rounds is then compared. A lookup skipped for some kind (the classic
      // leak: answering a malformed key without touching the database) shows as a gap of a
      // whole database round trip, several times the margin allowed here.
      const ROUNDS = 200;
      const rel = kinds.map(() => [] as number[]);
      const all: number[] = [];
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
      for (let w = 0; w < 20; w++)
        await app.inject({ method: 'GET', url: '/v1/usage', headers: kinds[w % kinds.length]![1] });
      for (let r = 0; r < ROUNDS; r++) {
        const order = kinds.map((_, i) => i);
        for (let i = order.length - 1; i > 0; i--) {
          const j = Math.floor(Math.random() * (i + 1));
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
        const round = new Array<number>(kinds.length);
        for (const k of order) {
          const t0 = process.hrtime.bigint();
          const res = await app.inject({ method: 'GET', url: '/v1/usage', headers: kinds[k]![1] });
          round[k] = Number(process.hrtime.bigint() - t0) / 1e6;
          assert.equal(res.statusCode, 401);
        }
        const mid = median(round);
        for (const [k, ms] of round.entries()) rel[k]!.push(ms - mid);
        all.push(...round);
      }
      const typical = median(all);
      const offsets = rel.map(median);
      const spread = Math.max(...offsets) - Math.min(...offsets);
      const shown = kinds
        .map(([name], i) => `${name} ${offsets[i]! >= 0 ? '+' : ''}${offsets[i]!.toFixed(3)}`)
        .join(', ');
      assert.ok(
        spread <= Math.max(0.15, typical * 0.25),
        `401 times differ by ${spread.toFixed(3)} ms (typical ${typical.toFixed(3)} ms; median offset from each round's median, ms: ${shown})`,
      );
      t.diagnostic(`401 times: typical ${typical.toFixed(3)} ms; offsets ${shown}`);
    });

    await t.test('a rolled key stops working; its replacement sees the same items', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const id = (await client(app, acc.key)('POST', '/v1/renders', { movie: movie() })).json().id;
      const fresh = generateApiKey('live');
      const rolled = await rollKey(db.sql, acc.keyId, {
        id: newId('key'),
        keyHash: fresh.keyHash,
        prefix: fresh.prefix,
      });
      assert.equal(rolled?.old.replacedBy, rolled?.created.id);
      assert.equal((await client(app, acc.key)('GET', `/v1/renders/${id}`)).statusCode, 401);
      assert.equal((await client(app, fresh.secret)('GET', `/v1/renders/${id}`)).statusCode, 200);
      assert.equal(await rollKey(db.sql, acc.keyId, { id: newId('key'), ...generateApiKey('live') }), undefined);
    });

    await t.test('public documents need no key', async () => {
      for (const url of ['/v1/openapi.json', '/v1/schemas/movie.v1.json', '/docs/errors/SCENE_EMPTY']) {
        const res = await client(app, null)('GET', url);
        assert.equal(res.statusCode, 200, url);
      }
      assert.equal((await client(app, null)('GET', '/docs/errors/NOPE')).statusCode, 404);
      assert.equal((await client(app, null)('GET', '/v1/nowhere')).json<Body>().error.code, 'NOT_FOUND');
    });
  });
});

test('key cache: hits skip the database; revocation evicts at once (NOTIFY, relayed by the embedded wire server too)', async (t) => {
  await eachBackend(t, async (t, db) => {
    let clock = Date.now();
    const app = await startApp(db, { config: testConfig({ authCacheTtlMs: 5000 }), now: () => new Date(clock) });
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro' });
    const api = client(app, acc.key);
    assert.equal((await api('GET', '/v1/usage')).statusCode, 200);
    await revokeKey(db.sql, acc.keyId);
    // The revocation's NOTIFY reaches the app's listener within moments, well inside the TTL.
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await api('GET', '/v1/usage')).statusCode;
    }
    assert.equal(status, 401);
    // A key restored behind the cache's back (no notification) stays refused only until the TTL.
    await db.sql`UPDATE api_keys SET revoked_at = NULL WHERE id = ${acc.keyId}`;
    assert.equal((await api('GET', '/v1/usage')).statusCode, 200, 'a miss looks the key up again');
    await db.sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${acc.keyId}`;
    assert.equal((await api('GET', '/v1/usage')).statusCode, 200, 'cached: no notification was sent');
    clock += 5001;
    assert.equal((await api('GET', '/v1/usage')).statusCode, 401, 'the TTL bounds a lost notification');
  });
});

test('key cache: a plan change evicts cached keys at once (NOTIFY)', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db, { config: testConfig({ authCacheTtlMs: 60_000 }) });
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro' });
    const api = client(app, acc.key);
    const limit = async () => Number((await api('GET', '/v1/usage')).headers['x-ratelimit-limit']);
    assert.equal(await limit(), 600, 'cached as pro');
    await setPlan(db.sql, acc.accountId, 'studio');
    let seen = 600;
    for (let i = 0; i < 50 && seen === 600; i++) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await limit();
    }
    assert.equal(seen, 1200, "the studio plan's rate limit, long before the 60 s TTL");
  });
});

test('failed authentications are rate limited per client address', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db, { config: testConfig({ authFailuresPerMinute: 3 }) });
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro' });
    const attempt = (ip: string, key: string) =>
      app.inject({ method: 'GET', url: '/v1/usage', remoteAddress: ip, headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < 3; i++) assert.equal((await attempt('10.0.0.1', 'guess')).statusCode, 401);
    const blocked = await attempt('10.0.0.1', 'guess');
    assert.equal(blocked.statusCode, 429);
    assert.equal(blocked.json().error.code, 'RATE_LIMITED');
    assert.ok(Number(blocked.headers['retry-after']) >= 1);
    // Blocked before the key is looked at: even a right guess learns nothing.
    assert.equal((await attempt('10.0.0.1', acc.key)).statusCode, 429);
    assert.equal((await attempt('10.0.0.2', acc.key)).statusCode, 200);
  });
});

test('the failure gate also holds for a key already verified (cached)', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db, { config: testConfig({ authFailuresPerMinute: 2, authCacheTtlMs: 60_000 }) });
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro' });
    const attempt = (ip: string, key: string) =>
      app.inject({ method: 'GET', url: '/v1/usage', remoteAddress: ip, headers: { authorization: `Bearer ${key}` } });
    assert.equal((await attempt('10.0.0.7', acc.key)).statusCode, 200, 'verified and cached');
    for (let i = 0; i < 2; i++) assert.equal((await attempt('10.0.0.7', 'guess')).statusCode, 401);
    const blocked = await attempt('10.0.0.7', acc.key);
    assert.equal(blocked.statusCode, 429);
    assert.equal(blocked.json().error.code, 'RATE_LIMITED');
    const other = await attempt('10.0.0.8', acc.key);
    assert.equal(other.statusCode, 200);
    assert.ok(Number(other.headers['x-ratelimit-remaining']) >= 0, 'the cached path still counts the key');
    assert.equal(
      Number(other.headers['x-ratelimit-remaining']),
      app.plans.pro.rateLimitPerMinute - 2,
      'two requests counted, the gated one not',
    );
  });
});

const limiterKinds = [{ name: 'in-process' }, ...(process.env.TEST_REDIS_URL ? [{ name: 'redis' }] : [])];
for (const kind of limiterKinds) {
  test(`per-key rate limit (${kind.name})`, async (t) => {
    await eachBackend(t, async (t, db) => {
      const limiter =
        kind.name === 'redis'
          ? new RedisRateLimiter(process.env.TEST_REDIS_URL as string, { prefix: `t:${newId('req')}:` })
          : undefined;
      // Closed whatever happens first: its Redis connection would keep this file's process alive
      // (a CI run once hung on it when the app's close failed before the limiter's).
      t.after(() => limiter?.close());
      const app = await startApp(db, {
        config: testConfig({ plans: planTable({ rateLimitPerMinute: { starter: 3 } }) }),
        ...(limiter ? { limiter } : {}),
      });
      try {
        await checkRateLimited(db, app);
      } finally {
        // Before eachBackend closes the database (it does when this function returns, before any
        // t.after hook): the app's close may still write to it.
        await app.close();
      }
    });
  });
}

/** Three requests a minute: the headers count down, the fourth is refused, another key is not. */
async function checkRateLimited(db: Database, app: Awaited<ReturnType<typeof startApp>>): Promise<void> {
  const acc = await newAccount(db, { plan: 'starter', credits: 10 });
  const api = client(app, acc.key);
  const first = await api('GET', '/v1/usage');
  assert.equal(first.headers['x-ratelimit-limit'], '3');
  assert.equal(first.headers['x-ratelimit-remaining'], '2');
  const reset = Number(first.headers['x-ratelimit-reset']);
  assert.ok(reset >= Date.now() / 1000 && reset <= Date.now() / 1000 + 61, String(reset));
  // Error responses carry the headers too.
  const missing = await api('GET', '/v1/renders/rnd_nope');
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.headers['x-ratelimit-remaining'], '1');
  await api('GET', '/v1/usage');
  const limited = await api('GET', '/v1/usage');
  assert.equal(limited.statusCode, 429);
  assert.equal(limited.json<Body>().error.code, 'RATE_LIMITED');
  assert.equal(limited.headers['x-ratelimit-remaining'], '0');
  assert.ok(Number(limited.headers['retry-after']) >= 1);
  // Another key of another account is unaffected.
  const other = await newAccount(db, { plan: 'starter' });
  assert.equal((await client(app, other.key)('GET', '/v1/usage')).statusCode, 200);
}

test('Redis unreachable: 503 SERVICE_UNAVAILABLE with Retry-After, and back to normal once it returns', async (t) => {
  if (!process.env.TEST_REDIS_URL) return t.skip('no TEST_REDIS_URL: scripts/test.sh starts a Redis for this');
  const target = new URL(process.env.TEST_REDIS_URL);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  const limiter = new RedisRateLimiter(`redis://127.0.0.1:${proxy.port}`, { prefix: `t:${newId('req')}:` });
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db, { limiter });
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro', credits: 10 });
    const api = client(app, acc.key);
    assert.equal((await api('GET', '/v1/usage')).statusCode, 200);
    proxy.refuse = true;
    proxy.cut();
    const down = await api('GET', '/v1/usage');
    assert.equal(down.statusCode, 503);
    assert.equal(down.json<{ error: { code: string } }>().error.code, 'SERVICE_UNAVAILABLE');
    assert.equal(down.headers['retry-after'], '5');
    proxy.refuse = false;
    // ioredis reconnects on its own; the next requests are served again.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await api('GET', '/v1/usage')).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200);
  });
  await limiter.close();
  await proxy.close();
});
