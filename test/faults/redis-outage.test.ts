import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REDIS_DEADLINE_MS } from '../../api/rate-limit/redis-limiter.ts';
import { UNHANDLED_REJECTION_MESSAGE } from '../../lib/logger.ts';
import type { Database } from '../../store/database.ts';
import { backends, newAccount } from '../api/helpers.ts';
import { tinyMovie } from '../pipeline/harness.ts';
import { freePort } from '../services/free-port.ts';
import { describeProcess, type ServeProcess, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';
import { startTcpProxy, type TcpProxy } from '../services/tcp-proxy.ts';

/**
 * Issue 27, item 4: with Redis (the rate limiter) unreachable, requests stalled up to 10 s,
 * queued in the ioredis client's offline queue while it tried to reconnect, before answering 503.
 * Here a real `serve` reaches Redis through a TCP proxy that refuses connections, then freezes
 * (a black-hole), then resets every connection; each request fired meanwhile must answer within
 * REDIS_DEADLINE_MS (503 SERVICE_UNAVAILABLE with Retry-After while Redis cannot be reached), and
 * everything is served again once it is back.
 */

/** Timers firing late on two cores shared with other test files, and a few ms to answer. */
const SLACK_MS = 750;
const BOUND_MS = REDIS_DEADLINE_MS + SLACK_MS;
const REQUESTS = 15;
const OUTAGE_MS = 4_500;
const ROUTES = ['GET /v1/renders', 'POST /v1/renders', 'GET /v1/usage'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  route: string;
  status: number;
  retryAfter: string | null;
  code: string | undefined;
  ms: number;
}

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const skip =
  !databaseUrl || !redisUrl ? 'needs TEST_DATABASE_URL and TEST_REDIS_URL (scripts/test.sh starts both)' : false;

describe('every request answers within the bound through a Redis outage', { timeout: 120_000, skip }, () => {
  let db: Database;
  let proxy: TcpProxy;
  let served: ServeProcess;
  let dir: string;
  let base: string;
  let key: string;

  before(async () => {
    const postgres = backends().find((b) => b.name === 'postgres');
    assert.ok(postgres && redisUrl);
    db = await postgres.open();
    ({ key } = await newAccount(db, { plan: 'pro', credits: 100_000 }));
    const target = new URL(redisUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    const port = await freePort();
    dir = await mkdtemp(path.join(tmpdir(), 'fw-redis-outage-'));
    base = `http://127.0.0.1:${port}`;
    served = spawnServe({
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      RENDER_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
    });
    await untilReady(served, base);
  });

  after(async () => {
    if (proxy) {
      proxy.thaw();
      proxy.refuse = false;
    }
    if (served) await stopServe(served).catch(() => served.child.kill('SIGKILL'));
    await proxy?.close();
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** One request at `route` (`METHOD /path`), timed; a hang is cut at 15 s (and fails). */
  async function ask(route: string): Promise<Answer> {
    const [method, url] = route.split(' ') as [string, string];
    const body = method === 'POST' ? JSON.stringify({ movie: tinyMovie() }) : undefined;
    const started = performance.now();
    try {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      let code: string | undefined;
      try {
        code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
      } catch {}
      const retryAfter = res.headers.get('retry-after');
      return { route, status: res.status, retryAfter, code, ms: performance.now() - started };
    } catch (err) {
      return { route, status: 0, retryAfter: null, code: (err as Error).name, ms: performance.now() - started };
    }
  }

  async function fireOverOutage(): Promise<Answer[]> {
    const pending: Promise<Answer>[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      pending.push(sleep((i * OUTAGE_MS) / REQUESTS).then(() => ask(ROUTES[i % ROUTES.length] as string)));
    }
    return Promise.all(pending);
  }

  function show(answers: Answer[]): string {
    return answers
      .map((a) => `${a.route}: ${a.status} ${a.code ?? ''} retry-after=${a.retryAfter} in ${Math.round(a.ms)} ms`)
      .join('\n');
  }

  const ok = (a: Answer) => a.status === (a.route.startsWith('POST') ? 201 : 200);
  const unavailable = (a: Answer) => a.status === 503 && a.code === 'SERVICE_UNAVAILABLE' && a.retryAfter !== null;

  function assertBounded(answers: Answer[], accept: (a: Answer) => boolean, what: string): void {
    const late = answers.filter((a) => a.ms > BOUND_MS);
    assert.deepEqual(late, [], `answers later than ${BOUND_MS} ms:\n${show(answers)}`);
    const wrong = answers.filter((a) => !accept(a));
    assert.deepEqual(wrong, [], `answers other than ${what}:\n${show(answers)}`);
  }

  /** Once Redis is back: every route answers as usual within 5 s (ioredis reconnects on its own). */
  async function assertRecovered(): Promise<void> {
    let answers: Answer[] = [];
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(100)) {
      answers = await Promise.all(ROUTES.map((r) => ask(r)));
      if (answers.every(ok)) break;
    }
    assert.ok(answers.every(ok), `not served again within 5 s of Redis's return:\n${show(answers)}`);
  }

  async function withServeLog(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      error.stack = `${error.stack}\n--- serve ---\n${describeProcess(served)}`;
      throw error;
    }
  }

  it('Redis refusing connections: every request answers 503 at once, then is served again', async (t) => {
    t.after(() => {
      proxy.refuse = false;
    });
    await withServeLog(async () => {
      await assertRecovered();
      proxy.refuse = true;
      proxy.cut();
      const answers = await fireOverOutage();
      t.diagnostic(show(answers));
      proxy.refuse = false;
      assertBounded(answers, unavailable, '503 SERVICE_UNAVAILABLE with Retry-After');
      await assertRecovered();
    });
  });

  it('Redis black-holed: every request answers 503 within the bound, then is served again', async (t) => {
    t.after(() => proxy.thaw());
    await withServeLog(async () => {
      await assertRecovered();
      proxy.freeze();
      const answers = await fireOverOutage();
      t.diagnostic(show(answers));
      proxy.thaw();
      assertBounded(answers, unavailable, '503 SERVICE_UNAVAILABLE with Retry-After');
      await assertRecovered();
    });
  });

  it('Redis connections reset while it stays up: every request answers within the bound', async (t) => {
    await withServeLog(async () => {
      await assertRecovered();
      const answers: Answer[] = [];
      for (let i = 0; i < 5; i++) {
        proxy.cut();
        answers.push(...(await Promise.all(ROUTES.map((r) => ask(r)))));
        await sleep(200);
      }
      t.diagnostic(show(answers));
      assertBounded(answers, (a) => ok(a) || unavailable(a), 'served, or 503 SERVICE_UNAVAILABLE with Retry-After');
      await assertRecovered();
      assert.equal(served.child.exitCode, null);
      assert.ok(!served.log().includes(UNHANDLED_REJECTION_MESSAGE), 'an unhandled rejection fired');
    });
  });
});
