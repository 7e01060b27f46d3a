import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../../api/http/schemas.ts';
import { client, eachBackend, newAccount, startApp } from './helpers.ts';

type Body = Record<string, unknown> & { error: { code: string; message: string; path?: string } };

/** Every list route: each pages with the shared `page` / `page_size` query. */
const LISTS = ['/v1/renders', '/v1/templates', '/v1/assets'] as const;

test('page and page_size are bounded by what a list can serve', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro', credits: 100 });
    const api = client(app, acc.key);

    for (const list of LISTS) {
      await t.test(`${list}: the last servable page answers an empty page`, async () => {
        const res = await api('GET', `${list}?page=${MAX_PAGE}&page_size=${MAX_PAGE_SIZE}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.deepEqual(body.items, []);
        assert.equal(body.page, MAX_PAGE);
        assert.equal(body.pageSize, MAX_PAGE_SIZE);
        assert.equal(body.hasMore, false);
      });

      for (const page of [String(MAX_PAGE + 1), '1000000000000000000', '1e21', String(2 ** 53)]) {
        await t.test(`${list}?page=${page} is VALIDATION_ERROR at page, not a database error`, async () => {
          const res = await api('GET', `${list}?page=${page}`);
          assert.equal(res.statusCode, 400, res.body);
          const body = res.json<Body>();
          assert.equal(body.error.code, 'VALIDATION_ERROR');
          assert.equal(body.error.path, 'page');
          assert.match(body.error.message, /page must be <= 1000000/);
        });
      }

      for (const size of ['0', String(MAX_PAGE_SIZE + 1), '1000000000000000000']) {
        await t.test(`${list}?page_size=${size} is VALIDATION_ERROR at page_size`, async () => {
          const res = await api('GET', `${list}?page_size=${size}`);
          assert.equal(res.statusCode, 400, res.body);
          const body = res.json<Body>();
          assert.equal(body.error.code, 'VALIDATION_ERROR');
          assert.equal(body.error.path, 'page_size');
        });
      }
    }
  });
});

test('GET /v1/renders date filters the database cannot read are VALIDATION_ERROR, not 500', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro', credits: 100 });
    const api = client(app, acc.key);
    const refused: [string, string][] = [
      ['created_after', '2020-12-31T23:59:60Z'], // a leap second: no JavaScript Date
      ['created_before', '0000-01-01T00:00:00Z'], // PostgreSQL has no year 0
      ['created_before', '0001-01-01T00:00:00+23:59'], // year 0 once in UTC
      ['created_after', '9999-12-31T23:59:59.999Z'],
      ['created_after', '2020-01-01\t00:00:00Z'],
    ];
    for (const [field, value] of refused) {
      const res = await api('GET', `/v1/renders?${field}=${encodeURIComponent(value)}`);
      assert.equal(res.statusCode, 400, `${field}=${value}: ${res.body}`);
      const body = res.json<Body>();
      assert.equal(body.error.code, 'VALIDATION_ERROR');
      assert.equal(body.error.path, field);
    }
    for (const value of [
      '0001-01-02T00:00:00Z',
      '2020-01-01t00:00:00z',
      '2020-01-01 00:00:00+23:59',
      '9999-12-30T00:00:00-23:59',
    ]) {
      const res = await api('GET', `/v1/renders?created_after=${encodeURIComponent(value)}`);
      assert.equal(res.statusCode, 200, `${value}: ${res.body}`);
    }
  });
});
