import assert from 'node:assert/strict';
import { test } from 'node:test';
import postgres from 'postgres';
import { RenderCache } from '../../api/renders/render-cache.ts';
import type { RenderResource } from '../../api/renders/render-resource.ts';
import * as lifecycle from '../../store/lifecycle/render-lifecycle.ts';
import { movie } from './docs.ts';
import { client, eachBackend, newAccount, startApp, testConfig } from './helpers.ts';

const owner = { accountId: 'acc_a', keyId: 'key_a', mode: 'live', plan: 'pro' } as const;
const resource = (id: string, progress: number) => ({ id, progress }) as unknown as RenderResource;

test('RenderCache: owner-checked, bounded in time, and never keeps a read that raced a change', () => {
  const cache = new RenderCache(1000);
  cache.set(resource('rnd_1', 5), owner, cache.generation, 0);
  assert.equal(JSON.parse(cache.get('rnd_1', owner, 999) ?? '{}').progress, 5);
  assert.equal(cache.get('rnd_1', { ...owner, accountId: 'acc_b' }, 1), undefined, 'another account misses');
  assert.equal(cache.get('rnd_1', { ...owner, mode: 'test' }, 1), undefined, 'the other mode misses');
  assert.equal(cache.get('rnd_1', owner, 1000), undefined, 'expired at ttl');

  // A read that started before an eviction (a change committed meanwhile) must not be stored.
  const before = cache.generation;
  cache.evict('rnd_2');
  cache.set(resource('rnd_1', 6), owner, before, 0);
  assert.equal(cache.get('rnd_1', owner, 1), undefined);

  cache.set(resource('rnd_1', 7), owner, cache.generation, 0);
  cache.evict('rnd_1');
  assert.equal(cache.get('rnd_1', owner, 1), undefined, 'evicted by id');
  cache.set(resource('rnd_1', 8), owner, cache.generation, 0);
  cache.evict(null);
  assert.equal(cache.size, 0, 'null evicts everything');

  const off = new RenderCache(0);
  off.set(resource('rnd_1', 1), owner, off.generation, 0);
  assert.equal(off.size, 0, 'ttl 0 disables it');

  const small = new RenderCache(1000, 2);
  for (const id of ['rnd_a', 'rnd_b', 'rnd_c']) small.set(resource(id, 0), owner, small.generation, 0);
  assert.equal(small.size, 2);
  assert.equal(small.get('rnd_a', owner, 1), undefined, 'the oldest entry went first');
});

test('GET /v1/renders/{id} never answers stale from its cache', async (t) => {
  await eachBackend(t, async (t, db) => {
    // A TTL far longer than the test: anything fresh must come from eviction, not expiry.
    const app = await startApp(db, { config: testConfig({ renderCacheTtlMs: 600_000 }) });
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro', credits: 1000 });
    const api = client(app, acc.key);
    const created = (await api('POST', '/v1/renders', { movie: movie(10) })).json<{ id: string }>();
    assert.equal((await api('GET', `/v1/renders/${created.id}`)).json().status, 'queued');
    assert.equal((await api('GET', `/v1/renders/${created.id}`)).json().status, 'queued');

    // This test process stands for the executor: it drives the lifecycle the API caches.
    const deps = { db, now: () => new Date() };
    const lease = { owner: 'cache-test', leaseMs: 60_000 };

    await t.test('a change made in this process is visible on the very next GET', async () => {
      const claimed = await lifecycle.claimNext(deps, lease, 3);
      assert.equal(claimed?.id, created.id);
      assert.equal((await api('GET', `/v1/renders/${created.id}`)).json().status, 'preparing');
      await lifecycle.reportProgress(deps, created.id, lease, { phase: 'rendering', progress: 40, durationSec: 10 });
      const r = (await api('GET', `/v1/renders/${created.id}`)).json();
      assert.deepEqual([r.status, r.progress, r.durationSec], ['rendering', 40, 10]);
    });

    await t.test('another account never gets a cached render', async () => {
      const other = await newAccount(db, { plan: 'pro', credits: 10 });
      const res = await client(app, other.key)('GET', `/v1/renders/${created.id}`);
      assert.equal(res.statusCode, 404);
    });

    if (db.kind === 'postgres') {
      await t.test('a change made by another process arrives through the trigger NOTIFY', async () => {
        assert.equal((await api('GET', `/v1/renders/${created.id}`)).json().progress, 40);
        // A separate connection stands for the operator or another replica writing the row.
        const outsider = postgres(db.url, { max: 1, onnotice: () => {} });
        try {
          await outsider`UPDATE renders SET progress = 55 WHERE id = ${created.id}`;
        } finally {
          await outsider.end();
        }
        const deadline = Date.now() + 2000;
        let progress = 40;
        while (progress !== 55 && Date.now() < deadline) {
          progress = (await api('GET', `/v1/renders/${created.id}`)).json<{ progress: number }>().progress;
          if (progress !== 55) await new Promise((r) => setTimeout(r, 10));
        }
        assert.equal(progress, 55, 'the NOTIFY evicted the cached row within 2 s (TTL is 10 min)');
      });
    }

    await t.test('finishing and failing are visible on the very next GET', async () => {
      assert.equal((await api('GET', `/v1/renders/${created.id}`)).json().status, 'rendering');
      const finishedAt = Date.now();
      await lifecycle.complete(deps, created.id, lease, { durationSec: 60, outputKey: 'out.mp4' });
      const done = (await api('GET', `/v1/renders/${created.id}`)).json();
      // The lifecycle priced it (1080p, 60 s: 1 minute) and set the pro plan's 90-day expiry; the
      // API signs the link from the row.
      assert.deepEqual([done.status, done.progress, done.meteredMinutes], ['done', 100, 1]);
      const expiresAt = new Date(done.expiresAt);
      const days = (expiresAt.getTime() - finishedAt) / 86_400_000;
      assert.ok(days >= 90 && days < 90.01, `expires in ${days} days`);
      assert.equal(done.outputUrl, app.links.outputUrl(created.id, expiresAt));

      const second = (await api('POST', '/v1/renders', { movie: movie(10) })).json<{ id: string }>();
      assert.equal((await lifecycle.claimNext(deps, lease, 3))?.id, second.id);
      await lifecycle.reportProgress(deps, second.id, lease, { phase: 'rendering', progress: 20, durationSec: 10 });
      assert.equal((await api('GET', `/v1/renders/${second.id}`)).json().progress, 20);
      // Handed back and claimed again (the lease is not shown), then failed.
      await lifecycle.release(deps, second.id, lease);
      assert.equal((await lifecycle.claimNext(deps, lease, 3))?.id, second.id);
      const error = { code: 'INTERNAL', message: 'boom', docsUrl: 'https://docs.example.test/INTERNAL' } as const;
      await lifecycle.fail(deps, second.id, lease, error);
      const failed = (await api('GET', `/v1/renders/${second.id}`)).json();
      assert.deepEqual([failed.status, failed.error?.code, failed.error?.message], ['failed', 'INTERNAL', 'boom']);
    });
  });
});
