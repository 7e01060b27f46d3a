// GET /player/framewright-player.js: the module any page loads, built from player/ by the function
// `make build` uses (player/build.ts), readable from any origin, and the name the build writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLAYER_FILE } from '../../player/build.ts';
import { backends, startApp } from '../api/helpers.ts';

test('the player module is served to any origin', { timeout: 120_000 }, async (t) => {
  const [b] = backends().slice(-1);
  const db = await b!.open();
  const app = await startApp(db);
  t.after(async () => {
    await app.close();
    await db.close();
  });
  const res = await app.inject({
    method: 'GET',
    url: `/player/${PLAYER_FILE}`,
    headers: { origin: 'https://any.example' },
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  // The bundle: three.js and the frame graph inside, the element registered, no Node built-in left.
  assert.match(res.body, /framewright-player/);
  assert.match(res.body, /customElements/);
  assert.doesNotMatch(res.body, /from\s*["']node:/);
  assert.ok(res.rawPayload.length > 300_000, `${res.rawPayload.length} bytes`);
});
