import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sweepRenderWork, WORK_GRACE_MS } from '../../api/execution/output-sweeper.ts';
import { segmentName, type WorkManifest, workKey } from '../../lib/render-work.ts';
import { movieKey } from '../../lib/storage/keys.ts';
import { S3ObjectStore } from '../../lib/storage/s3-store.ts';
import { eachBackend, logger, newAccount } from '../api/helpers.ts';
import { insertQueuedRender, testBucket } from '../services/cluster-fixture.ts';

/**
 * The API's sweeper removes the work objects (work/<id>/) a render spread over pods left behind
 * when it did not reach its join's clean-up (failed, cancelled), and every finished render's movie
 * document (movies/<id>.json), once and only after the grace period; renders without work are
 * marked and cost one read. PostgreSQL and PGlite, real S3 (moto).
 */
test('the sweeper removes the work of finished renders once, after the grace period', async (t) => {
  const endpoint = process.env.TEST_S3_ENDPOINT;
  assert.ok(endpoint, 'TEST_S3_ENDPOINT is set by scripts/test.sh');
  await eachBackend(t, async (_t, db) => {
    const { bucket, options } = await testBucket(endpoint, 'fw-work');
    const objects = new S3ObjectStore({ ...options, bucket });
    const now = new Date('2026-11-24T12:00:00Z');
    const { accountId, keyId } = await newAccount(db);
    const movie = { schema: 'v1', scenes: [] };
    const render = async (status: 'failed' | 'done' | 'rendering', minutesAgo: number) => {
      const row = await insertQueuedRender(db.sql, { accountId, keyId, movie });
      const at = new Date(now.getTime() - minutesAgo * 60_000);
      await db.sql`UPDATE renders SET status = ${status}, updated_at = ${at} WHERE id = ${row.id}`;
      return row.id;
    };
    const storeWork = async (id: string) => {
      const manifest = {
        version: 1,
        ranges: [
          { from: 0, to: 10 },
          { from: 10, to: 20 },
        ],
        files: ['files/0-a.rgba', 'audio.m4a'],
      };
      await objects.putBuffer(
        workKey(id, 'manifest.json'),
        Buffer.from(JSON.stringify(manifest as Partial<WorkManifest>)),
        'application/json',
      );
      const keys = [...manifest.files, segmentName(0), segmentName(1)].map((n) => workKey(id, n));
      for (const k of keys) await objects.putBuffer(k, Buffer.from('x'), 'application/octet-stream');
      return [...keys, workKey(id, 'manifest.json')];
    };
    const failedLongAgo = await render('failed', 20);
    const failedJustNow = await render('failed', 5);
    const running = await render('rendering', 60);
    const doneWithout = await render('done', 30);
    const left = await storeWork(failedLongAgo);
    const recent = await storeWork(failedJustNow);
    const live = await storeWork(running);
    // The movie documents the Kubernetes executor stored for each render's pods.
    for (const id of [failedLongAgo, failedJustNow, running, doneWithout])
      await objects.putBuffer(movieKey(id), Buffer.from(JSON.stringify(movie)), 'application/json');

    const removed = await sweepRenderWork({ db, objects, logger, now: () => now });
    assert.equal(removed, 5, 'four files and the manifest of the render that failed 20 minutes ago');
    for (const k of left) assert.equal(await objects.head(k), null, `${k} removed`);
    for (const k of [...recent, ...live]) assert.ok(await objects.head(k), `${k} kept`);
    for (const id of [failedLongAgo, doneWithout])
      assert.equal(await objects.head(movieKey(id)), null, `movie of ${id} removed`);
    for (const id of [failedJustNow, running]) assert.ok(await objects.head(movieKey(id)), `movie of ${id} kept`);
    const swept = await db.sql<{ id: string; workSweptAt: Date | null }[]>`
      SELECT id, work_swept_at FROM renders WHERE account_id = ${accountId}`;
    const at = new Map(swept.map((r) => [r.id, r.workSweptAt]));
    assert.ok(at.get(failedLongAgo) && at.get(doneWithout), 'both finished renders past the grace period are marked');
    assert.equal(at.get(failedJustNow), null, 'within the grace period: not yet');
    assert.equal(at.get(running), null, 'a running render: never');

    // Once: the next sweep reads nothing again; past the grace period the recent one goes too.
    assert.equal(await sweepRenderWork({ db, objects, logger, now: () => now }), 0);
    const later = new Date(now.getTime() + WORK_GRACE_MS);
    assert.equal(await sweepRenderWork({ db, objects, logger, now: () => later }), 5);
    for (const k of recent) assert.equal(await objects.head(k), null, `${k} removed`);
    for (const k of live) assert.ok(await objects.head(k), `${k} kept`);
    assert.equal(await objects.head(movieKey(failedJustNow)), null, 'its movie too');
    assert.ok(await objects.head(movieKey(running)), 'a running render keeps its movie');
  });
});
