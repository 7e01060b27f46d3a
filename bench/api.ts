/**
 * `framewright bench api` (`make bench-api`): autocannon on loopback, 50 connections, against
 * GET /v1/renders/{id} and POST /v1/renders (small movie) on the embedded PGlite and, when
 * TEST_DATABASE_URL is set, on PostgreSQL (with the Redis rate limiter when TEST_REDIS_URL is set),
 * beside a bare Fastify route returning the same JSON, measured in the same run.
 * Targets: GET >= half the bare route's req/s; p99 < 20 ms (GET) and < 50 ms (POST).
 * Load comes from many accounts, each autocannon connection acting for its own (GET: 2,000
 * accounts, each polling its own render; POST: fresh accounts every round, as many as the
 * throughput needs so that none reaches its plan's concurrency cap), as from the clients of a
 * deployment. Any answer other than 2xx, in a counted round or a warm-up, fails the bench (exit 1).
 *
 * `--profile` profiles the GET path instead (see profileGet): a CPU profile of the server's thread
 * per backend under the same load, saved as bench/profiles/<backend>-get.cpuprofile (open it in
 * Chrome DevTools or speedscope for the flame graph) and printed as a table of what each plugin,
 * cache and library costs, in % of the thread's CPU and in µs per request.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { buildApp } from '../api/app.ts';
import { createAccountWithKey } from '../api/auth/provision.ts';
import { planTable } from '../api/billing/plans.ts';
import { tuneV8ForServing } from '../api/cli/v8-serving.ts';
import { apiConfig } from '../api/config.ts';
import { RedisRateLimiter } from '../api/rate-limit/redis-limiter.ts';
import { EnvSchema, readEnv } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { type Database, openDatabase } from '../store/database.ts';

// autocannon ships no types; this is the part of its API used here.
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Seconds the run took. */
  duration: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const CONNECTIONS = 50;
/** GET: each connection polls for its own 40 accounts, round robin (bench/accounts-client.cjs). */
const ACCOUNTS_PER_CONNECTION = 40;
const ACCOUNTS_CLIENT = fileURLToPath(new URL('./accounts-client.cjs', import.meta.url));
const ROUNDS = 5;
const WARM_UP_SECONDS = 3;
const SMALL_MOVIE = {
  schema: 'v1',
  preset: '16:9',
  scenes: [{ id: 's1', duration: 3, elements: [{ id: 't1', type: 'text', text: 'Hello' }] }],
};

interface Row {
  name: string;
  rps: number;
  /** GET rows: req/s over the bare route's, the median of the rounds (each against its own bare run). */
  ratio?: number;
  /** GET rows: each round's ratio, for the reader to see the spread. */
  rounds?: number[];
  /** GET rows: each round's ratio, req/s of both and the other work on the machine. */
  roundNotes?: string[];
  /** POST rows: each round's p99. */
  p99Rounds?: number[];
  /** POST rows: each round's requests and seconds. */
  sizeRounds?: string[];
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Requests answered in the run. */
  total?: number;
  /** Seconds the run took. */
  seconds?: number;
  /**
   * Cores that work other than the bench's (this process, Redis, PostgreSQL) took on average
   * during the run: other people's work on a shared machine, which slows the run down.
   */
  otherCores?: number;
}

/**
 * Every run's answers other than 2xx and its errors, warm-ups and the bare route's included: the
 * bench fails (exit 1) when there is any, since refused requests answer fast and flatter a figure.
 */
const refused: string[] = [];

/** Redis to ask for its CPU time (INFO) while the Redis limiter is in use. */
let benchRedis: Redis | undefined;

/** CPU time (µs) so far of the machine less this process, Redis and PostgreSQL: other work. */
async function benchCpu(): Promise<{ others: number }> {
  const machine = await machineBusyUs();
  const own = process.cpuUsage();
  const redis = await redisCpuUs(benchRedis).catch(() => 0);
  return { others: machine - own.user - own.system - redis - (await postgresCpuUs()) };
}

async function load(
  url: string,
  opts: {
    method?: 'GET' | 'POST';
    body?: string;
    headers?: Record<string, string>;
    /**
     * The accounts to act for, shared out among the connections (bench/accounts-client.cjs): the
     * key of each and, for GET, the path of its render.
     */
    requests?: { key: string; path?: string }[];
    seconds: number;
    /**
     * A run of this many requests instead of `seconds`, each connection making an equal share
     * (autocannon's `amount`); its req/s is then the requests over the run's duration.
     */
    amount?: number;
    /** No connection makes more requests than this (the POST warm-up's guard). */
    maxConnectionRequests?: number;
  },
): Promise<Omit<Row, 'name'>> {
  // The client module runs in autocannon's worker thread: its slices travel in the environment.
  // Connection c acts for the c-th of CONNECTIONS equal slices, and no other connection does.
  if (opts.requests) {
    const requests = opts.requests;
    const per = requests.length / CONNECTIONS;
    if (!Number.isInteger(per) || per < 1)
      throw new Error(`bench: ${requests.length} accounts do not share out among ${CONNECTIONS} connections`);
    process.env.FW_BENCH_REQUESTS = JSON.stringify(
      Array.from({ length: CONNECTIONS }, (_, c) => requests.slice(c * per, (c + 1) * per)),
    );
  }
  let result: AutocannonResult;
  const cpu0 = await benchCpu();
  try {
    result = await autocannon({
      url,
      connections: CONNECTIONS,
      ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds }),
      ...(opts.maxConnectionRequests ? { maxConnectionRequests: opts.maxConnectionRequests } : {}),
      method: opts.method ?? 'GET',
      ...(opts.body ? { body: opts.body } : {}),
      headers: opts.headers ?? {},
      ...(opts.requests ? { setupClient: ACCOUNTS_CLIENT } : {}),
      // The load generator runs in a worker thread so it does not share the server's event loop.
      workers: 1,
    });
  } finally {
    delete process.env.FW_BENCH_REQUESTS;
  }
  const cpu1 = await benchCpu();
  // autocannon drops its sockets at the deadline while handlers may still be waiting on the
  // database; let them finish before the next row (or before the database closes).
  await new Promise((r) => setTimeout(r, 2000));
  if (result.non2xx > 0 || result.errors + result.timeouts > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, { count }]) => `${code} x${count}`);
    const line = `${opts.method ?? 'GET'} ${url}: ${result.non2xx} not 2xx (${codes.join(', ') || 'none'}), ${result.errors} errors, ${result.timeouts} timeouts`;
    refused.push(line);
    console.log(`  (${line})`);
  }
  return {
    rps: opts.amount ? result.requests.total / result.duration : result.requests.average,
    total: result.requests.total,
    seconds: result.duration,
    otherCores: Math.max(0, cpu1.others - cpu0.others) / 1e6 / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function freshPostgres(base: string, logger: ReturnType<typeof createLogger>): Promise<Database> {
  const name = `fw_bench_${randomBytes(5).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '.', logger });
  return {
    ...db,
    close: async () => {
      await db.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const chunk = <T>(xs: T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Other work on the machine (cores, Row.otherCores) past which a GET round is run again. */
const DISTURBED_CORES = 0.3;
/** Tries of a GET round at most (the last one counts, disturbed or not, and is marked so). */
const ROUND_TRIES = 3;

/**
 * GET against the bare route in alternating rounds: the machine's speed drifts by tens of percent
 * over a minute here (a shared host), so each GET run is compared with a bare run made just
 * before it, and the median of the rounds is reported. A round during which other work on the
 * machine took more than DISTURBED_CORES (in either run) is run again, up to ROUND_TRIES times:
 * the bench measures this code, not the neighbours' tests. Each round's ratio is printed with
 * the other work seen during it.
 */
async function getRounds(url: string, bareUrl: string, requests: { key: string; path: string }[], seconds: number) {
  const runs: { bare: Omit<Row, 'name'>; get: Omit<Row, 'name'>; tries: number }[] = [];
  // A warm-up, not counted, as for POST: the pollers' keys and renders are not cached yet.
  await load(url, { requests, seconds: WARM_UP_SECONDS });
  for (let i = 0; i < ROUNDS; i++) {
    for (let tries = 1; ; tries++) {
      const bare = await load(bareUrl, { seconds });
      const get = await load(url, { requests, seconds });
      const other = Math.max(bare.otherCores ?? 0, get.otherCores ?? 0);
      if (other <= DISTURBED_CORES || tries === ROUND_TRIES) {
        runs.push({ bare, get, tries });
        break;
      }
    }
  }
  const mid = [...runs].sort((a, b) => a.get.rps / a.bare.rps - b.get.rps / b.bare.rps)[Math.floor(ROUNDS / 2)]!;
  return {
    ...mid.get,
    p99: median(runs.map((r) => r.get.p99)),
    ratio: mid.get.rps / mid.bare.rps,
    rounds: runs.map((r) => r.get.rps / r.bare.rps),
    roundNotes: runs.map(
      (r) =>
        `${(r.get.rps / r.bare.rps).toFixed(2)}x (${Math.round(r.get.rps)}/${Math.round(r.bare.rps)}, other work ${Math.max(r.bare.otherCores ?? 0, r.get.otherCores ?? 0).toFixed(2)} cores${r.tries > 1 ? `, try ${r.tries}` : ''})`,
    ),
    bare: runs.map((r) => r.bare),
  };
}

/** The keys of CONNECTIONS * perConnection new studio accounts with credits to spare. */
async function benchKeys(db: Database, perConnection = ACCOUNTS_PER_CONNECTION): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < CONNECTIONS * perConnection; i += CONNECTIONS) {
    const batch = await Promise.all(
      Array.from({ length: CONNECTIONS }, () => createAccountWithKey(db, { plan: 'studio', credits: 1_000_000_000 })),
    );
    keys.push(...batch.map((a) => a.key.secret));
  }
  return keys;
}

/** The API as the bench runs it, on `db`, with the Redis limiter when `redisUrl` is given. */
async function startApi(db: Database, redisUrl: string | undefined) {
  const logger = createLogger({ level: 'error' });
  // Rate limits out of the way, so the benchmark measures the request path (spread over 2,000
  // keys, the load stays under the studio plan's 1,200 a minute per key anyway). The studio plan
  // keeps its concurrency cap (25): the POST accounts are enough for no account to reach it, as in
  // production, where renders finish and the active renders of an account stay under the cap.
  // The one-account row uses pro without a cap.
  const config = apiConfig(readEnv(EnvSchema, {}).values, {
    plans: planTable({
      rateLimitPerMinute: { studio: 100_000_000, pro: 100_000_000 },
      concurrency: { pro: 100_000_000 },
    }),
    publicBaseUrl: 'http://127.0.0.1',
  });
  const limiter = redisUrl
    ? new RedisRateLimiter(redisUrl, { prefix: `bench:${randomBytes(4).toString('hex')}:` })
    : undefined;
  const app = await buildApp({ config, db, logger, ...(limiter ? { limiter } : {}) });
  const base = await listen(app);
  // Its own connection, for INFO (Redis's CPU time, see benchCpu).
  benchRedis = redisUrl ? new Redis(redisUrl) : undefined;
  return {
    app,
    base,
    config,
    limiterName: limiter ? 'redis' : 'in-process',
    close: async () => {
      await app.close();
      await limiter?.close();
      benchRedis?.disconnect();
      benchRedis = undefined;
    },
  };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * GET load from many accounts too, each polling its own render: what clients of a real
 * deployment do. One key polled 50 times at once would also be far past any plan's rate limit,
 * and its sliding-window log in Redis would hold hundreds of thousands of entries.
 */
async function makePollers(db: Database, base: string): Promise<{ key: string; path: string }[]> {
  const pollers: { key: string; path: string }[] = [];
  for (const batch of chunk(await benchKeys(db), CONNECTIONS)) {
    pollers.push(
      ...(await Promise.all(
        batch.map(async (key) => {
          const created = await fetch(`${base}/v1/renders`, {
            method: 'POST',
            headers: { ...JSON_HEADERS, authorization: `Bearer ${key}` },
            body: JSON.stringify({ movie: SMALL_MOVIE }),
          });
          if (created.status !== 201)
            throw new Error(`bench setup: POST /v1/renders -> ${created.status} ${await created.text()}`);
          return { key, path: `/v1/renders/${((await created.json()) as { id: string }).id}` };
        }),
      )),
    );
  }
  return pollers;
}

async function benchBackend(
  label: string,
  db: Database,
  seconds: number,
  redisUrl: string | undefined,
  bareUrl: string,
  only: 'get' | 'post' | undefined,
): Promise<{ rows: Row[]; bare: Omit<Row, 'name'>[] }> {
  const { base, config, limiterName, close } = await startApi(db, redisUrl);
  try {
    const headers = JSON_HEADERS;
    const rows: Row[] = [];
    let bare: Omit<Row, 'name'>[] = [];
    if (only !== 'post') {
      const pollers = await makePollers(db, base);
      const { bare: bareRuns, ...get } = await getRounds(
        // Each request's path is the render of its account (set by accounts-client.cjs).
        `${base}/v1/renders`,
        bareUrl,
        pollers,
        seconds,
      );
      bare = bareRuns;
      rows.push({ name: `GET /v1/renders/{id}  ${label}, ${limiterName}, ${pollers.length} accounts`, ...get });
    }
    if (only === 'get') return { rows, bare };
    // POST load comes from many accounts, as in production: creates of ONE account are
    // serialised on its row lock by design (that is what makes overspending impossible), so one
    // account hammered by 50 connections measures the lock, not the request path. That case is
    // printed too, for information.
    // Rounds, like GET (the machine's speed drifts), each with fresh accounts: the median round
    // is reported, and every round's p99 is shown.
    const postRuns: Omit<Row, 'name'>[] = [];
    // Every render a POST creates stays queued (no executor runs here), so it counts against its
    // account's cap (studio: 25 at once) until the end. So that no request meets the cap, each
    // round is a fixed number of creates, its accounts counted from it: every connection makes
    // an equal share (autocannon's `amount`) and goes round its own accounts, so none gets more
    // than ceil(share / accounts) <= the cap. The number is the rate of the run before times the
    // round's seconds, so a round lasts about that long. Any answer other than 2xx still fails
    // the bench (see load()).
    const cap = config.plans.studio.concurrency;
    let rate = 0;
    let postAccounts = 0;
    // Round -1 is a warm-up, not counted: the create path's code (the SQL function, and on PGlite
    // the WebAssembly that V8 optimises only once it runs hot) has not run under load before it.
    // It runs for its seconds, each connection stopping at what its accounts hold.
    for (let round = -1; round < ROUNDS; round++) {
      const share = round < 0 ? ACCOUNTS_PER_CONNECTION * cap : Math.max(1, Math.round((rate * seconds) / CONNECTIONS));
      const perConnection = Math.ceil(share / cap);
      const run = await load(`${base}/v1/renders`, {
        method: 'POST',
        body: JSON.stringify({ movie: SMALL_MOVIE }),
        headers,
        requests: (await benchKeys(db, perConnection)).map((key) => ({ key })),
        seconds: round < 0 ? WARM_UP_SECONDS : seconds,
        ...(round < 0 ? { maxConnectionRequests: share } : { amount: share * CONNECTIONS }),
      });
      rate = run.rps;
      if (round >= 0) {
        postRuns.push(run);
        postAccounts = Math.max(postAccounts, perConnection * CONNECTIONS);
      }
    }
    const post = {
      ...[...postRuns].sort((a, b) => a.rps - b.rps)[Math.floor(ROUNDS / 2)]!,
      p99: median(postRuns.map((r) => r.p99)),
      p99Rounds: postRuns.map((r) => r.p99),
      sizeRounds: postRuns.map((r) => `${r.total} in ${r.seconds?.toFixed(1)} s`),
      non2xx: postRuns.reduce((n, r) => n + r.non2xx, 0),
      errors: postRuns.reduce((n, r) => n + r.errors, 0),
    };
    const one = await createAccountWithKey(db, { plan: 'pro', credits: 1_000_000_000 });
    const postOne = await load(`${base}/v1/renders`, {
      method: 'POST',
      body: JSON.stringify({ movie: SMALL_MOVIE }),
      headers: { ...headers, authorization: `Bearer ${one.key.secret}` },
      seconds,
    });
    rows.push(
      {
        name: `POST /v1/renders      ${label}, ${limiterName}, <=${postAccounts} accounts`,
        ...post,
      },
      { name: `  (info) POST, all 50 connections on one account`, ...postOne },
    );
    return { rows, bare };
  } finally {
    await close();
  }
}

// ---- --profile: where the GET path's CPU goes -------------------------------------------------

/** The parts of a V8 CPU profile (Profiler.stop) read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The profiler's sampling interval: 100 µs, about 20 samples per request at 10,000 req/s a core. */
const SAMPLE_US = 100;
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a frame's code is part of, by file: the project's modules by name, libraries by what they
 * do for the request. A sample is charged to its innermost frame that has a part (native frames
 * without a file are skipped, so SHA-256 is charged to api-key.ts, which calls it). Libraries
 * called from one of our modules only on its behalf are charged with it (prom-client with the
 * metrics hook, ioredis with the Redis limiter, ajv's compiled validators with validation).
 */
const PARTS: [RegExp, string][] = [
  [/^api\/plugins\/auth\.ts$/, 'auth hook (plugins/auth.ts)'],
  [/^api\/auth\/api-key\.ts$/, 'auth: key hash, SHA-256 (auth/api-key.ts)'],
  [/^api\/auth\/key-cache\.ts$/, 'auth: key cache (auth/key-cache.ts)'],
  [/^api\/auth\/last-used\.ts$/, 'auth: last-used writes (auth/last-used.ts)'],
  [/^api\/auth\//, 'auth: other'],
  [/^api\/plugins\/rate-limit\.ts$/, 'rate-limit hook (plugins/rate-limit.ts)'],
  [/^api\/rate-limit\/memory-limiter\.ts$/, 'rate limiter, in-process (memory-limiter.ts)'],
  [
    /^api\/rate-limit\/redis-limiter\.ts$|^node_modules\/(ioredis|@ioredis|redis-parser|redis-errors|denque|cluster-key-slot|standard-as-callback)\//,
    'rate limiter, Redis client (redis-limiter.ts, ioredis)',
  ],
  [
    /^api\/plugins\/error-handler\.ts$|^store\/db-deadline\.ts$|^node:async_hooks$|async_context_frame|async_local_storage/,
    'error handler: db-deadline scope (AsyncLocalStorage)',
  ],
  [/^api\/plugins\/request-id\.ts$|^lib\/ids\.ts$|^node_modules\/ulid/, 'request id (genReqId, x-request-id)'],
  [/^api\/plugins\/unused-connections\.ts$/, 'unused-connections hook'],
  [/^api\/plugins\/route-table\.ts$/, 'route-table hook (404/405)'],
  [/^api\/plugins\/id-params\.ts$/, 'id-params hook'],
  [/^lib\/metrics\/|^node_modules\/(prom-client|bintrees|tdigest)\//, 'metrics hook (prom-client)'],
  [/^api\/app\.ts$/, 'app.ts hooks (metrics onResponse glue)'],
  [/^api\/renders\/render-cache\.ts$/, 'render cache (renders/render-cache.ts)'],
  [/^api\/renders\/render-resource\.ts$/, 'render resource (row -> JSON shape)'],
  [/^api\/renders\/|^api\/routes\//, 'GET handler (renders/routes.ts)'],
  [
    /^api\/http\/validation\.ts$|^node_modules\/(ajv|ajv-formats|fast-uri|@fastify\/ajv-compiler)\//,
    'params validation (ajv)',
  ],
  [/^node_modules\/(fast-json-stringify|@fastify\/fast-json-stringify-compiler)\//, 'serializer (fast-json-stringify)'],
  [
    /^store\/|^node_modules\/postgres\/|^node_modules\/@electric-sql\//,
    'database (store/, postgres.js, PGlite client)',
  ],
  [/^node_modules\/(pino|pino-std-serializers|sonic-boom|abstract-logging)\//, 'logging (pino)'],
  [
    /^node_modules\/find-my-way\/|^node_modules\/fast-decode-uri-component\/|^node_modules\/fast-querystring\//,
    'router (find-my-way)',
  ],
  [/^node_modules\/fastify\/lib\/reply\.js$/, 'fastify reply (headers, send)'],
  [
    /^node_modules\/(fastify|avvio|fastify-plugin|@fastify\/error|@fastify\/proxy-addr|proxy-addr)\//,
    'fastify core (hooks, request)',
  ],
  [
    /^node:(_http_|http$|internal\/http|net$|internal\/net|stream|internal\/streams|internal\/stream_base|internal\/buffer|buffer)/,
    'node HTTP + sockets',
  ],
  [/^node:internal\/(process\/task_queues|timers|async_hooks)|^node:timers/, 'node promise/timer queues'],
  [/^api\/|^lib\/|^store\//, 'other project code'],
  [/^node:/, 'node: other'],
  [/^node_modules\//, 'other libraries'],
];

function partOfUrl(url: string): string | undefined {
  if (url === '') return undefined;
  let rel = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (rel.startsWith(REPO_ROOT)) rel = rel.slice(REPO_ROOT.length);
  else if (rel.includes('/node_modules/')) rel = rel.slice(rel.lastIndexOf('/node_modules/') + 1);
  else if (!rel.startsWith('node:')) return 'other libraries';
  return PARTS.find(([re]) => re.test(rel))?.[1] ?? 'other libraries';
}

/** Self time (µs) by part, and the busiest functions, of a profile; idle is left out. */
function partsOf(profile: CpuProfile): { parts: Map<string, number>; functions: Map<string, number>; busyUs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOfNode = new Map<number, string>();
  const part = (id: number): string => {
    const known = partOfNode.get(id);
    if (known) return known;
    const frame = byId.get(id)?.callFrame;
    let found: string;
    if (!frame) found = 'native (no JavaScript frame)';
    else if (frame.functionName === '(garbage collector)') found = 'GC';
    else if (frame.functionName === '(idle)') found = '(idle)';
    else if (frame.functionName === '(program)') found = 'V8/native (program)';
    else {
      const own = partOfUrl(frame.url);
      const up = parent.get(id);
      found = own ?? (up === undefined || up === profile.nodes[0]?.id ? 'native (no JavaScript frame)' : part(up));
    }
    partOfNode.set(id, found);
    return found;
  };
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    // timeDeltas[i] is the time since the sample before: this sample stands for the next one's.
    const us = profile.timeDeltas[i + 1] ?? SAMPLE_US;
    const p = part(id);
    if (p === '(idle)') return;
    busyUs += us;
    parts.set(p, (parts.get(p) ?? 0) + us);
    const f = byId.get(id)?.callFrame;
    if (f) {
      const where = f.url
        ? `${f.url.replace(`file://${REPO_ROOT}`, '').replace(/^.*\/node_modules\//, '')}:${f.lineNumber + 1}`
        : '';
      const name = `${f.functionName || '(anonymous)'} ${where}`.trim();
      functions.set(name, (functions.get(name) ?? 0) + us);
    }
  });
  return { parts, functions, busyUs };
}

/** CPU time (µs) of each thread of this process now, by id, with its name (Linux). */
async function threadCpu(): Promise<Map<string, { name: string; us: number }>> {
  const out = new Map<string, { name: string; us: number }>();
  const tickUs = 1e6 / 100; // USER_HZ
  for (const tid of await readdir('/proc/self/task').catch(() => [] as string[])) {
    const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8').catch(() => '');
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After the name: state is field 3, utime 14 and stime 15 (1-based, man 5 proc).
    out.set(tid, { name, us: (Number(fields[11]) + Number(fields[12])) * tickUs });
  }
  return out;
}

/** CPU time (µs) of every PostgreSQL process on the machine (Linux), the bench's and any other. */
async function postgresCpuUs(): Promise<number> {
  let us = 0;
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (!stat.includes('(postgres)')) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    us += (Number(fields[11]) + Number(fields[12])) * 1e4;
  }
  return us;
}

/** The machine's busy CPU time (µs, all cores), from /proc/stat. */
async function machineBusyUs(): Promise<number> {
  const line = (await readFile('/proc/stat', 'utf8').catch(() => '')).split('\n')[0] ?? '';
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1e4;
}

/** redis-server's CPU time (µs, user + system), from INFO. */
async function redisCpuUs(redis: Redis | undefined): Promise<number> {
  if (!redis) return 0;
  const info = await redis.info('cpu');
  const read = (k: string) => Number(new RegExp(`^${k}:(\\S+)`, 'm').exec(info)?.[1] ?? 0);
  return (read('used_cpu_user') + read('used_cpu_sys')) * 1e6;
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

/** Where the machine's CPU went while `run` ran: by thread of this process, Redis, the rest. */
async function cpuDuring<T>(redis: Redis | undefined, run: () => Promise<T>) {
  const threads0 = await threadCpu();
  const process0 = process.cpuUsage();
  const machine0 = await machineBusyUs();
  const redis0 = await redisCpuUs(redis);
  const postgres0 = await postgresCpuUs();
  const result = await run();
  const threads1 = await threadCpu();
  const d = process.cpuUsage(process0);
  const machineUs = (await machineBusyUs()) - machine0;
  const redisUs = (await redisCpuUs(redis)) - redis0;
  // A process that ended during the run (a backend closed) takes its time with it: at least 0.
  const postgresUs = Math.max(0, (await postgresCpuUs()) - postgres0);
  const parts = new Map<string, number>();
  let threadsUs = 0;
  for (const [tid, t] of threads1) {
    const us = t.us - (threads0.get(tid)?.us ?? 0);
    threadsUs += us;
    // The main thread is the server; WorkerThread threads alive after the run are PGlite's (the
    // load generator's has ended by then).
    const name =
      tid === String(process.pid)
        ? 'server thread (Fastify; profiled below)'
        : t.name === 'WorkerThread'
          ? 'PGlite worker thread'
          : t.name.startsWith('V8')
            ? 'V8 helper threads (GC, compiler)'
            : `other threads of this process (${t.name})`;
    parts.set(name, (parts.get(name) ?? 0) + us);
  }
  const processUs = d.user + d.system;
  parts.set('load generator (autocannon worker thread)', Math.max(0, processUs - threadsUs));
  if (redis) parts.set('redis-server', redisUs);
  parts.set('PostgreSQL processes (any on the machine)', postgresUs);
  parts.set('other processes (other work on the machine)', Math.max(0, machineUs - processUs - redisUs - postgresUs));
  return { result, parts, machineUs };
}

/**
 * `url` under the bench's load (50 connections; for the API, 2,000 pollers) after a warm-up, twice:
 * unprofiled, for the CPU each thread and process on the machine takes per request (the figures
 * that decide the req/s on a 2-core machine), then with V8's sampling profiler on the server's
 * thread, for its time by part and by function. The profile is written to
 * bench/profiles/<slug>.cpuprofile and the table beside it as <slug>.txt.
 */
async function profileRun(
  title: string,
  slug: string,
  url: string,
  requests: { key: string; path: string }[] | undefined,
  seconds: number,
  redis: Redis | undefined,
): Promise<string[]> {
  const opts = { ...(requests ? { requests } : {}), seconds };
  await load(url, { ...opts, seconds: WARM_UP_SECONDS });
  const plain = await cpuDuring(redis, () => load(url, opts));
  const session = new Session();
  session.connect();
  let profile: CpuProfile;
  let profiled: Omit<Row, 'name'>;
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLE_US });
    await session.post('Profiler.start');
    profiled = await load(url, opts);
    profile = ((await session.post('Profiler.stop')) as unknown as { profile: CpuProfile }).profile;
  } finally {
    session.disconnect();
  }
  const n = plain.result.total ?? 0;
  const loadUs = seconds * 1e6;
  const perReq = (us: number, count: number) => (count > 0 ? (us / count).toFixed(1) : '-');
  const lines = [
    `${title}: ${plain.result.rps.toFixed(0)} req/s unprofiled (${n} requests in ${seconds} s), ${profiled.rps.toFixed(0)} req/s profiled`,
    // Cores: CPU seconds (the load's and its 2 s drain's) per second of load, so a busy machine
    // can show a little over 2.
    `  CPU while unprofiled (cores: CPU s per s of load), per request:`.padEnd(66) + 'cores  µs/req',
  ];
  for (const [name, us] of [...plain.parts].sort((a, b) => b[1] - a[1])) {
    if (us <= 0) continue;
    lines.push(`    ${name.padEnd(60)} ${(us / loadUs).toFixed(2).padStart(5)} ${perReq(us, n).padStart(7)}`);
  }
  lines.push(
    `    ${'machine total (2 cores)'.padEnd(60)} ${(plain.machineUs / loadUs).toFixed(2).padStart(5)} ${perReq(plain.machineUs, n).padStart(7)}`,
  );
  const { parts, functions, busyUs } = partsOf(profile);
  const m = profiled.total ?? 0;
  lines.push(
    `  server thread while profiled, by part (self time, ${(busyUs / 1000).toFixed(0)} ms busy, ${m} requests):`.padEnd(
      66,
    ) + 'share  µs/req',
  );
  for (const [name, us] of [...parts].sort((a, b) => b[1] - a[1]))
    lines.push(`    ${name.padEnd(60)} ${pct(us, busyUs).padStart(6)} ${perReq(us, m).padStart(6)}`);
  lines.push(`    ${'total'.padEnd(60)} ${'100%'.padStart(6)} ${perReq(busyUs, m).padStart(6)}`);
  lines.push('  busiest functions (self time):');
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 25))
    lines.push(`    ${pct(us, busyUs).padStart(6)} ${perReq(us, m).padStart(5)} µs  ${name}`);
  const dir = path.join(REPO_ROOT, 'bench', 'profiles');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${slug}.cpuprofile`), JSON.stringify(profile));
  await writeFile(path.join(dir, `${slug}.txt`), `${lines.join('\n')}\n`);
  lines.push(
    `  profile: bench/profiles/${slug}.cpuprofile (a flame graph in Chrome DevTools > Performance, or speedscope)`,
  );
  return lines;
}

/** profileRun of GET /v1/renders/{id} on `db` (and the Redis limiter when redisUrl is given). */
async function profileGet(
  label: string,
  slug: string,
  db: Database,
  redisUrl: string | undefined,
  seconds: number,
): Promise<string[]> {
  const api = await startApi(db, redisUrl);
  const redis = benchRedis;
  try {
    const pollers = await makePollers(db, api.base);
    const title = `GET /v1/renders/{id} on ${label}, ${api.limiterName} rate limiter, ${pollers.length} accounts`;
    return await profileRun(title, slug, `${api.base}/v1/renders`, pollers, seconds, redis);
  } finally {
    await api.close();
  }
}

/** The baseline: a bare Fastify route answering the same render JSON, no auth, no database. */
function bareRoute(): FastifyInstance {
  const bareApp = Fastify({ logger: false });
  const sample = {
    id: 'rnd_01m80tvbabw9n8501sar80pa7c',
    status: 'queued',
    progress: 0,
    draft: false,
    watermark: false,
    outputUrl: null,
    expiresAt: null,
    error: null,
    durationSec: null,
    meteredMinutes: null,
    fps: 30,
    templateId: null,
    webhookUrl: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  bareApp.get('/bare', async () => sample);
  return bareApp;
}

export async function main(argv: string[]): Promise<number> {
  // The API's V8 settings, as serve sets them (the bare route runs in this process too).
  tuneV8ForServing();
  const secArg = argv.find((a) => a.startsWith('--duration='));
  const seconds = secArg ? Number(secArg.slice(11)) : 10;
  // --backend=pglite or --backend=postgres benches one of the two (default: both).
  const backend = argv.find((a) => a.startsWith('--backend='))?.slice(10);
  if (backend !== undefined && backend !== 'pglite' && backend !== 'postgres')
    throw new Error(`--backend must be pglite or postgres, not ${backend}`);
  // --only=get or --only=post runs one of the two request kinds (default: both).
  const only = argv.find((a) => a.startsWith('--only='))?.slice(7);
  if (only !== undefined && only !== 'get' && only !== 'post')
    throw new Error(`--only must be get or post, not ${only}`);
  const logger = createLogger({ level: 'error' });
  if (argv.includes('--profile')) return profileMain(backend, seconds, logger);

  const bareApp = bareRoute();
  const bareUrl = `${await listen(bareApp)}/bare`;
  const rows: Row[] = [];
  const bareRuns: Omit<Row, 'name'>[] = [];
  try {
    if (backend !== 'postgres') {
      const dir = await mkdtemp(path.join(tmpdir(), 'fw-bench-'));
      try {
        const pglite = await openDatabase({ dataDir: dir, logger });
        try {
          const r = await benchBackend('PGlite', pglite, seconds, undefined, bareUrl, only);
          rows.push(...r.rows);
          bareRuns.push(...r.bare);
        } finally {
          await pglite.close();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    const pgUrl = process.env.TEST_DATABASE_URL;
    if (backend !== 'pglite' && pgUrl) {
      const pg = await freshPostgres(pgUrl, logger);
      try {
        const r = await benchBackend('PostgreSQL', pg, seconds, process.env.TEST_REDIS_URL, bareUrl, only);
        rows.push(...r.rows);
        bareRuns.push(...r.bare);
      } finally {
        await pg.close();
      }
    } else if (backend !== 'pglite') {
      process.stdout.write('TEST_DATABASE_URL not set: PostgreSQL skipped (use make bench-api)\n');
    }
    // POST rows are not compared with the bare route, but the reader still sees it in the same run.
    if (bareRuns.length === 0) bareRuns.push(await load(bareUrl, { seconds }));
  } finally {
    await bareApp.close();
  }
  const bareMid = [...bareRuns].sort((a, b) => a.rps - b.rps)[Math.floor(bareRuns.length / 2)]!;
  rows.unshift({
    name: 'GET /bare              bare Fastify route (baseline)',
    ...bareMid,
    p99: median(bareRuns.map((b) => b.p99)),
  });

  const bareRps = rows[0]?.rps ?? 1;
  const lines = [
    `api bench: autocannon, ${CONNECTIONS} connections, ${seconds} s per run, loopback; GET: ${CONNECTIONS * ACCOUNTS_PER_CONNECTION} accounts each polling its own render, median of ${ROUNDS} rounds after a ${WARM_UP_SECONDS} s warm-up, each against a bare run just before it, a round during which other work took more than ${DISTURBED_CORES} cores run again (at most ${ROUND_TRIES} tries) (bare row: median of the counted bare runs); POST: median of ${ROUNDS} rounds after a ${WARM_UP_SECONDS} s warm-up, each a fixed number of creates (the run before's rate x ${seconds} s) from fresh accounts, enough that none reaches its plan's cap`,
    `${'target'.padEnd(62)} ${'req/s'.padStart(8)} ${'vs bare'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non2xx'.padStart(7)} ${'errors'.padStart(7)}  goal`,
  ];
  let allMet = true;
  for (const r of rows) {
    let goal = '';
    if (r.name.startsWith('GET /v1')) {
      const ok = (r.ratio ?? 0) >= 0.5 && r.p99 < 20 && r.non2xx === 0 && r.errors === 0;
      allMet &&= ok;
      goal = `${ok ? 'met' : 'MISSED'} (>= 0.50x bare, p99 < 20 ms, all 2xx); rounds ${(r.roundNotes ?? []).join(', ')}`;
    } else if (r.name.startsWith('POST')) {
      // Refused requests (429 at a cap, say) answer fast: they would flatter the figure.
      const ok = r.p99 < 50 && r.non2xx === 0 && r.errors === 0;
      allMet &&= ok;
      goal = `${ok ? 'met' : 'MISSED'} (p99 < 50 ms, all 2xx)`;
      if (r.p99Rounds) goal += `; rounds p99 ${r.p99Rounds.join(' ')} ms`;
      if (r.sizeRounds) goal += ` (${r.sizeRounds.join(', ')})`;
    }
    lines.push(
      `${r.name.padEnd(62)} ${r.rps.toFixed(0).padStart(8)} ${`${(r.ratio ?? r.rps / bareRps).toFixed(2)}x`.padStart(8)} ${r.p50.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)} ${String(r.non2xx).padStart(7)} ${String(r.errors).padStart(7)}  ${goal}`,
    );
  }
  lines.push(allMet ? 'all targets met' : 'some targets missed (see goal column)');
  if (refused.length > 0) {
    lines.push(
      `FAILED: ${refused.length} run(s) had answers other than 2xx or errors, warm-ups included:`,
      ...refused.map((r) => `  ${r}`),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return refused.length > 0 ? 1 : 0;
}

/** `--profile`: profileGet on each backend (or the one --backend names). */
async function profileMain(
  backend: string | undefined,
  seconds: number,
  logger: ReturnType<typeof createLogger>,
): Promise<number> {
  const out: string[] = [];
  const bareApp = bareRoute();
  try {
    const bareUrl = `${await listen(bareApp)}/bare`;
    out.push(
      ...(await profileRun(
        'GET /bare, the bare Fastify route (baseline)',
        'bare-get',
        bareUrl,
        undefined,
        seconds,
        undefined,
      )),
    );
  } finally {
    await bareApp.close();
  }
  if (backend !== 'postgres') {
    const dir = await mkdtemp(path.join(tmpdir(), 'fw-bench-'));
    try {
      const pglite = await openDatabase({ dataDir: dir, logger });
      try {
        out.push(...(await profileGet('PGlite', 'pglite-get', pglite, undefined, seconds)));
      } finally {
        await pglite.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (backend !== 'pglite' && pgUrl) {
    const pg = await freshPostgres(pgUrl, logger);
    try {
      out.push(...(await profileGet('PostgreSQL', 'postgres-redis-get', pg, process.env.TEST_REDIS_URL, seconds)));
    } finally {
      await pg.close();
    }
  } else if (backend !== 'pglite') {
    out.push('TEST_DATABASE_URL not set: PostgreSQL skipped (use make bench-api-profile)');
  }
  if (refused.length > 0) out.push('FAILED: answers other than 2xx or errors:', ...refused.map((r) => `  ${r}`));
  process.stdout.write(`${out.join('\n')}\n`);
  return refused.length > 0 ? 1 : 0;
}

// `node --import tsx bench/api.ts [--profile] [--backend=…] [--duration=…]` (make bench-api-profile)
// runs it without the CLI.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
