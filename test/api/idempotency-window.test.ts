import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countRenders } from '../../store/renders-repo.ts';
import { movie } from './docs.ts';
import { client, eachBackend, newAccount, startApp } from './helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

test('Idempotency-Key replay window is 24 hours', async (t) => {
  await eachBackend(t, async (t, db) => {
    let clock = Date.parse('2026-03-01T12:00:00.000Z');
    const app = await startApp(db, { now: () => new Date(clock) });
    t.after(() => app.close());
    const acc = await newAccount(db, { plan: 'pro', credits: 100 });
    const api = client(app, acc.key);
    const headers = { 'idempotency-key': 'daily' };
    const first = await api('POST', '/v1/renders', { movie: movie() }, headers);
    assert.equal(first.statusCode, 201);
    // Key order in the body does not matter: the same document is the same request.
    const reordered = { movie: Object.fromEntries(Object.entries(movie()).reverse()) };
    clock += DAY_MS - 1000;
    const replay = await api('POST', '/v1/renders', reordered, headers);
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.json().id, first.json().id);
    assert.equal(replay.json().createdAt, first.json().createdAt);
    clock += 2000;
    const fresh = await api('POST', '/v1/renders', { movie: movie(4) }, headers);
    assert.equal(fresh.statusCode, 201, 'after 24 h the key is free again');
    assert.notEqual(fresh.json().id, first.json().id);
    assert.equal(await countRenders(db.sql, acc.accountId), 2);
  });
});
