import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REDIS_DEADLINE_MS } from '../../api/rate-limit/redis-limiter.ts';
import { UNHANDLED_REJECTION_MESSAGE } from '../../lib/logger.ts';
import type { Database } from '../../store/database.ts';
import { backends, newAccount } from '../api/helpers.ts';
import {
  type LocalServe,
  startLocalServe,
  stopLocalServe,
  untilReady,
  withServeLog,
} from '../services/serve-process.ts';
import { startTcpProxy, type TcpProxy } from '../services/tcp-proxy.ts';
import {
  type Answer,
  ask,
  assertBounded,
  fireOverOutage,
  served as isServed,
  SLACK_MS,
  show,
  unavailable,
} from './outage-requests.ts';

/**
 * Issue 27, item 4: with Redis (the rate limiter) unreachable, requests stalled up to 10 s,
 * queued in the ioredis client's offline queue while it tried to reconnect, before answering 503.
 * Here a real `serve` reaches Redis through a TCP proxy that refuses connections, then freezes
 * (a black-hole), then resets every connection; each request fired meanwhile must answer within
 * REDIS_DEADLINE_MS (503 SERVICE_UNAVAILABLE with Retry-After while Redis cannot be reached), and
 * everything is served again once it is back.
 */

const BOUND_MS = REDIS_DEADLINE_MS + SLACK_MS;
const REQUESTS = 15;
const OUTAGE_MS = 4_500;
const ROUTES = ['GET /v1/renders', 'POST /v1/renders', 'GET /v1/usage'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const skip =
  !databaseUrl || !redisUrl ? 'needs TEST_DATABASE_URL and TEST_REDIS_URL (scripts/test.sh starts both)' : false;

describe('every request answers within the bound through a Redis outage', { timeout: 120_000, skip }, () => {
  let db: Database;
  let proxy: TcpProxy;
  let served: LocalServe;
  let base: string;
  let key: string;

  before(async () => {
    const postgres = backends().find((b) => b.name === 'postgres');
    assert.ok(postgres && redisUrl);
    db = await postgres.open();
    ({ key } = await newAccount(db, { plan: 'pro', credits: 100_000 }));
    const target = new URL(redisUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    served = await startLocalServe(db.url, { REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
    base = served.base;
    await untilReady(served, base);
  });

  after(async () => {
    if (proxy) {
      proxy.thaw();
      proxy.refuse = false;
    }
    if (served) await stopLocalServe(served).catch(() => served.child.kill('SIGKILL'));
    await proxy?.close();
    await db?.close();
  });

  /** Once Redis is back: every route answers as usual within 5 s (ioredis reconnects on its own). */
  async function assertRecovered(): Promise<void> {
    let answers: Answer[] = [];
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(100)) {
      answers = await Promise.all(ROUTES.map((r) => ask(base, key, r)));
      if (answers.every(isServed)) break;
    }
    assert.ok(answers.every(isServed), `not served again within 5 s of Redis's return:\n${show(answers)}`);
  }

  it('Redis refusing connections: every request answers 503 at once, then is served again', async (t) => {
    t.after(() => {
      proxy.refuse = false;
    });
    await withServeLog(served, async () => {
      await assertRecovered();
      proxy.refuse = true;
      proxy.cut();
      const answers = await fireOverOutage(base, key, ROUTES, REQUESTS, OUTAGE_MS);
      t.diagnostic(show(answers));
      proxy.refuse = false;
      assertBounded(answers, BOUND_MS);
      await assertRecovered();
    });
  });

  it('Redis black-holed: every request answers 503 within the bound, then is served again', async (t) => {
    t.after(() => proxy.thaw());
    await withServeLog(served, async () => {
      await assertRecovered();
      proxy.freeze();
      const answers = await fireOverOutage(base, key, ROUTES, REQUESTS, OUTAGE_MS);
      t.diagnostic(show(answers));
      proxy.thaw();
      assertBounded(answers, BOUND_MS);
      await assertRecovered();
    });
  });

  it('Redis connections reset while it stays up: every request answers within the bound', async (t) => {
    await withServeLog(served, async () => {
      await assertRecovered();
      const answers: Answer[] = [];
      for (let i = 0; i < 5; i++) {
        proxy.cut();
        answers.push(...(await Promise.all(ROUTES.map((r) => ask(base, key, r)))));
        await sleep(200);
      }
      t.diagnostic(show(answers));
      assertBounded(
        answers,
        BOUND_MS,
        (a) => isServed(a) || unavailable(a),
        'served, or 503 SERVICE_UNAVAILABLE with Retry-After',
      );
      await assertRecovered();
      assert.equal(served.child.exitCode, null);
      assert.ok(!served.log().includes(UNHANDLED_REJECTION_MESSAGE), 'an unhandled rejection fired');
    });
  });
});
