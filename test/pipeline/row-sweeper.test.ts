import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { sweepRows } from '../../api/execution/output-sweeper.ts';
import { createPipeline, pipelineConfig } from '../../api/execution/pipeline.ts';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { ApiMetrics } from '../../lib/metrics/api-metrics.ts';
import { findIdempotencyRecord, saveIdempotencyRecord } from '../../store/idempotency-repo.ts';
import { eachBackend, logger, newAccount, testConfig } from '../api/helpers.ts';
import { parseExposition } from '../metrics/exposition.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Issue 42: the tables that grew for ever. The retention sweeper deletes idempotency records past
 * their 24-hour window (a record reused since, by a new request under the same key, stays) and
 * webhook deliveries finished longer ago than WEBHOOK_RETENTION_DAYS (a delivery still owed stays
 * however old), in batches, on PostgreSQL and PGlite.
 */
test('the sweeper deletes expired idempotency records and old finished webhook deliveries, nothing else', async (t) => {
  await eachBackend(t, async (_t, db) => {
    const now = new Date('2026-11-29T12:00:00Z');
    const { accountId } = await newAccount(db);
    const record = (key: string, at: Date) =>
      saveIdempotencyRecord(db.sql, {
        accountId,
        mode: 'live',
        key,
        requestHash: 'h',
        resourceType: 'render',
        resourceId: `rnd_${key}`,
        now: at,
      });
    await record('expired-1', new Date(now.getTime() - 25 * HOUR));
    await record('expired-2', new Date(now.getTime() - 30 * DAY));
    await record('fresh', new Date(now.getTime() - 23 * HOUR));
    // Expired, then used again by a new request an hour ago: a record of that request now.
    await record('reused', new Date(now.getTime() - 48 * HOUR));
    await record('reused', new Date(now.getTime() - HOUR));

    const delivery = async (id: string, ended: { delivered?: number; gaveUp?: number }, createdDaysAgo: number) => {
      const at = (days: number | undefined) => (days === undefined ? null : new Date(now.getTime() - days * DAY));
      await db.sql`
        INSERT INTO webhook_outbox (id, account_id, render_id, event_type, url, attempts, next_attempt_at,
          delivered_at, gave_up_at, created_at)
        VALUES (${id}, ${accountId}, ${`rnd_${id}`}, 'render.completed', 'https://example.com/hook', 1,
          ${at(createdDaysAgo)}, ${at(ended.delivered)}, ${at(ended.gaveUp)}, ${at(createdDaysAgo)})`;
    };
    await delivery('whk_delivered_old', { delivered: 8 }, 8);
    await delivery('whk_gave_up_old', { gaveUp: 8 }, 11);
    await delivery('whk_delivered_recent', { delivered: 6 }, 6);
    // Created long ago, given up only recently (its retries ran for days): kept from when it ended.
    await delivery('whk_gave_up_recent', { gaveUp: 2 }, 10);
    await delivery('whk_owed', {}, 30);

    // Batches of one: the loop goes on until a batch comes back short.
    const swept = await sweepRows({ db, logger, now: () => now, webhookRetentionMs: 7 * DAY }, 1);
    assert.deepEqual(swept, { idempotencyKeys: 2, webhookDeliveries: 2 });

    const keys = await db.sql<{ key: string }[]>`
      SELECT key FROM idempotency_keys WHERE account_id = ${accountId} ORDER BY key`;
    assert.deepEqual(
      keys.map((r) => r.key),
      ['fresh', 'reused'],
    );
    const reused = await findIdempotencyRecord(db.sql, { accountId, mode: 'live', key: 'reused' }, now);
    assert.equal(reused?.resourceId, 'rnd_reused', 'the reused key still answers its replay');
    const deliveries = await db.sql<{ id: string }[]>`SELECT id FROM webhook_outbox ORDER BY id`;
    assert.deepEqual(
      deliveries.map((r) => r.id),
      ['whk_delivered_recent', 'whk_gave_up_recent', 'whk_owed'],
    );

    // A second sweep finds nothing more.
    assert.deepEqual(await sweepRows({ db, logger, now: () => now, webhookRetentionMs: 7 * DAY }), {
      idempotencyKeys: 0,
      webhookDeliveries: 0,
    });
  });
});

test('serve sweeps the rows at start-up, after WEBHOOK_RETENTION_DAYS, and counts them in framewright_retention_removed_total', async (t) => {
  await eachBackend(t, async (t, db) => {
    const now = new Date();
    const { accountId } = await newAccount(db);
    await saveIdempotencyRecord(db.sql, {
      accountId,
      mode: 'live',
      key: 'old',
      requestHash: 'h',
      resourceType: 'render',
      resourceId: 'rnd_old',
      now: new Date(now.getTime() - 2 * DAY),
    });
    // Delivered 4 days ago: kept by the default of 7 days, deleted under WEBHOOK_RETENTION_DAYS=3.
    const fourDaysAgo = new Date(now.getTime() - 4 * DAY);
    await db.sql`
      INSERT INTO webhook_outbox (id, account_id, render_id, event_type, url, attempts, next_attempt_at,
        delivered_at, created_at)
      VALUES ('whk_4d', ${accountId}, 'rnd_4d', 'render.completed', 'https://example.com/hook', 1, ${fourDaysAgo},
        ${fourDaysAgo}, ${fourDaysAgo})`;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-sweep-'));
    t.after(() => rm(dataDir, { recursive: true, force: true }));
    const metrics = new ApiMetrics(new Registry(), {
      rendersByStatus: async () => new Map(),
      outboxBacklog: async () => 0,
    });
    const { values } = readEnv(EnvSchema, { WEBHOOK_RETENTION_DAYS: '3', RENDER_CONCURRENCY: '1' });
    const config = pipelineConfig(values, process.env);
    assert.equal(config.webhookRetentionMs, 3 * DAY);
    const pipeline = await createPipeline({ api: testConfig({ dataDir }), config, db, logger, metrics });
    pipeline.start();
    t.after(() => pipeline.close());
    const removed = async (kind: string) =>
      parseExposition(await metrics.registry.metrics()).value('framewright_retention_removed_total', { kind });
    const deadline = Date.now() + 20_000;
    while ((await removed('idempotency_key')) + (await removed('webhook_delivery')) < 2) {
      assert.ok(Date.now() < deadline, 'the start-up sweep ran');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(await removed('idempotency_key'), 1);
    assert.equal(await removed('webhook_delivery'), 1);
    const [left] = await db.sql<{ n: number }[]>`
      SELECT (SELECT count(*) FROM idempotency_keys)::int + (SELECT count(*) FROM webhook_outbox)::int AS n`;
    assert.equal(left?.n, 0);
  });
});
