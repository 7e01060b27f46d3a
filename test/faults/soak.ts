/**
 * `make soak`: random faults for a set time while renders run, then the count that matters.
 *
 * A real `framewright serve` on its own PostgreSQL, Redis and S3 server (moto), each reached
 * through a TCP proxy this script controls. Clients submit small renders (some with a voice) with
 * an Idempotency-Key each, retrying on a 503 or a dropped connection as a careful client would,
 * while a fault loop picks one fault at a time at random:
 *
 *   db-stop      PostgreSQL stopped (`pg_ctl -m fast stop`), started again after a while
 *   db-freeze    the database's traffic black-holed (no refusal), then delivered
 *   redis-cut    Redis connections reset and new ones refused for a while
 *   s3-refuse    the object store refusing connections for a while
 *   worker-kill  a render worker (a child of serve) killed with SIGKILL
 *   serve-kill   serve itself killed with SIGKILL and started again on the same data
 *
 * When the time is up every fault is healed and each submitted render is followed until it ends.
 * It prints renders done, failed (by code: a fault longer than a retry budget may fail a render,
 * refunded), lost (a submission that got no render, a render that never ended, a done render
 * whose output cannot be downloaded and decoded, a failed one that was charged) and charged
 * twice (more than one `render` row in the credit ledger).
 *
 * Then what is left (issue 42): time is moved on for what retention measures (every output past
 * its expiry, every idempotency record past its window, in the database) and serve is restarted,
 * so that its start-up sweeps run; once they have, it counts the files left in DATA_DIR/tmp and in
 * the workers' temporary directory, the objects left under each prefix of the bucket, and the rows
 * left that retention promises to remove. And serve's memory (RSS, sampled every 15 s): its
 * longest incarnation a minute after it started and at its end, and the first and the last
 * incarnations a minute after they started (serve-kill restarts it). It exits 1 unless lost,
 * charged twice and every count left are 0.
 *
 *   SOAK_MINUTES (default 10)  how long faults are injected
 *   SOAK_SEED                  the random seed (printed, so that a run can be repeated)
 *   SOAK_CLIENTS (default 3)   clients, each with one render in flight
 *   SOAK_FAULTS                these faults in this order, round and round (default: any, at random)
 *
 * Needs TEST_REDIS_URL and TEST_S3_ENDPOINT (scripts/with-services.sh); PostgreSQL is its own.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { openDatabase } from '../../store/database.ts';
import { logger, newAccount } from '../api/helpers.ts';
import { freePort } from '../services/free-port.ts';
import { PostgresServer } from '../services/postgres-server.ts';
import { type ServeProcess, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';
import { startTcpProxy } from '../services/tcp-proxy.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const SEED = Number(process.env.SOAK_SEED ?? Date.now() % 1_000_000);
/** How long, after the faults stop, renders may take to end before one still running is lost. */
const SETTLE_MS = 5 * 60_000;
/** Renders kept in flight at once. */
const IN_FLIGHT = Number(process.env.SOAK_CLIENTS ?? 3);
const FAULTS = process.env.SOAK_FAULTS?.split(',').map((f) => f.trim());
/** RENDER_LEASE_SEC of the soak's serve: a killed attempt's files go two leases after a start. */
const LEASE_SEC = 10;
/** Every prefix the product writes in the bucket (lib/storage/keys.ts). */
const PREFIXES = ['renders/', 'posters/', 'thumbnails/', 'movies/', 'assets/', 'work/'];

/** mulberry32: a small seeded generator, so that a run can be repeated from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

function movie(n: number) {
  const withVoice = n % 3 === 0;
  return {
    schema: 'v1',
    width: 320,
    height: 180,
    fps: 15,
    scenes: [
      {
        id: 's1',
        duration: between(2, 8),
        background: '#204080',
        elements: [
          { id: 't1', type: 'text', text: `Soak ${n}`, fontSize: 40, color: '#ffffff' },
          ...(withVoice ? [{ id: 'v1', type: 'voice', text: 'A render under faults.', voiceId: 'espeak-en-us' }] : []),
        ],
      },
    ],
  };
}

interface Submitted {
  key: string;
  ids: Set<string>;
}

async function main(): Promise<void> {
  const redisUrl = process.env.TEST_REDIS_URL;
  const s3Endpoint = process.env.TEST_S3_ENDPOINT;
  if (!redisUrl || !s3Endpoint) throw new Error('soak: run it through scripts/with-services.sh (make soak)');
  console.log(`soak: ${MINUTES} min of faults, seed ${SEED} (SOAK_SEED=${SEED} repeats this run)`);

  const pg = await PostgresServer.start();
  const dbProxy = await startTcpProxy({ host: '127.0.0.1', port: pg.port });
  const redis = new URL(redisUrl);
  const redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port) });
  const s3 = new URL(s3Endpoint);
  const s3Proxy = await startTcpProxy({ host: s3.hostname, port: Number(s3.port) });
  const bucket = `soak-${SEED}`;
  const s3Client = new S3Client({
    endpoint: s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  await s3Client.send(new CreateBucketCommand({ Bucket: bucket }));

  // The checks read the database directly, never through the proxy the faults go through.
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '.', logger, max: 2 });
  const { key: apiKey } = await newAccount(db, { plan: 'pro', credits: 1_000_000 });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-soak-'));
  // The workers' temporary directory, the soak's own, so that what they leave can be counted.
  const workerTmp = path.join(dataDir, 'worker-tmp');
  await mkdir(workerTmp);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${dbProxy.port}/postgres`,
    REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
    S3_BUCKET: bucket,
    S3_ENDPOINT: s3Proxy.url('http'),
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'test',
    S3_SECRET_ACCESS_KEY: 'test',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    RENDER_CONCURRENCY: '2',
    RENDER_LEASE_SEC: String(LEASE_SEC),
    LOG_LEVEL: 'warn',
    TMPDIR: workerTmp,
  };
  let serve: ServeProcess = spawnServe(env);
  await untilReady(serve, base, 60_000);
  const serveLog: string[] = [];
  const keepLog = (s: ServeProcess) => () => serveLog.push(s.log());

  /**
   * serve's resident memory (MiB) every 15 s, by process: `settled` is its sample a minute after it
   * started (workers warm, caches filled), compared with its last and with other incarnations'.
   */
  const memory = new Map<number, { from: number; at: number; first: number; last: number; settled?: number }>();
  const sampleMemory = async () => {
    const pid = serve.child.pid;
    if (!pid) return;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    if (!kb) return;
    const mib = kb / 1024;
    const seen = memory.get(pid);
    if (seen) {
      Object.assign(seen, { last: mib, at: Date.now() });
      if (seen.settled === undefined && seen.at - seen.from >= 60_000) seen.settled = mib;
    } else memory.set(pid, { from: Date.now(), at: Date.now(), first: mib, last: mib });
  };
  await sampleMemory();
  const sampler = setInterval(() => void sampleMemory(), 15_000);

  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const submitted: Submitted[] = [];
  const answers = new Map<string, number>();
  const count = (what: string) => answers.set(what, (answers.get(what) ?? 0) + 1);
  /** Answer times of every request (ms), to show how long a fault keeps a client waiting. */
  const latencies: number[] = [];
  /** The fault being injected when a request started ('none' between faults), and its slowest answer. */
  let activeFault = 'none';
  const slowest = new Map<string, number>();
  const timed = async (url: string, init: RequestInit): Promise<Response> => {
    const started = performance.now();
    const during = activeFault;
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    } finally {
      const ms = performance.now() - started;
      latencies.push(ms);
      slowest.set(during, Math.max(slowest.get(during) ?? 0, ms));
    }
  };
  let stopping = false;
  const deadline = Date.now() + MINUTES * 60_000;

  /** One client: submit, retry the same key until a render comes back, follow it to its end. */
  async function client(): Promise<void> {
    while (!stopping) {
      const entry: Submitted = { key: `soak-${SEED}-${submitted.length}`, ids: new Set() };
      submitted.push(entry);
      const body = JSON.stringify({ movie: movie(submitted.length) });
      let id: string | undefined;
      // A client that keeps its Idempotency-Key may retry for as long as it likes.
      for (let attempt = 0; !id && attempt < 600; attempt++) {
        try {
          const res = await timed(`${base}/v1/renders`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': entry.key },
            body,
          });
          count(`POST ${res.status}`);
          if (res.status === 201 || res.status === 200) {
            id = ((await res.json()) as { id: string }).id;
            entry.ids.add(id);
          } else {
            await res.body?.cancel();
            if (res.status !== 503 && res.status !== 429 && res.status !== 409) {
              throw new Error(`POST /v1/renders answered ${res.status}`);
            }
            await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
          }
        } catch (err) {
          if ((err as Error).message.startsWith('POST')) throw err;
          count('POST no answer');
          await sleep(1000);
        }
      }
      // Wait for it to end before the next, as a user watching progress would (polling).
      while (id && !stopping) {
        const res = await timed(`${base}/v1/renders/${id}`, { headers }).catch(() => undefined);
        const status = res?.ok ? ((await res.json()) as { status: string }).status : undefined;
        if (res && !res.ok) await res.body?.cancel();
        if (status === 'done' || status === 'failed') break;
        await sleep(1000);
      }
    }
  }

  const faults: Record<string, () => Promise<void>> = {
    'db-stop': async () => {
      await pg.stopServer();
      await sleep(between(3, 20) * 1000);
      await pg.startServer();
    },
    'db-freeze': async () => {
      dbProxy.freeze();
      await sleep(between(3, 20) * 1000);
      dbProxy.thaw();
    },
    'redis-cut': async () => {
      redisProxy.refuse = true;
      redisProxy.cut();
      await sleep(between(3, 15) * 1000);
      redisProxy.refuse = false;
    },
    's3-refuse': async () => {
      s3Proxy.refuse = true;
      s3Proxy.cut();
      await sleep(between(3, 15) * 1000);
      s3Proxy.refuse = false;
    },
    'worker-kill': async () => {
      const { stdout } = await run('ps', ['-o', 'pid=,args=', '--ppid', String(serve.child.pid)]).catch(() => ({
        stdout: '',
      }));
      const workers = stdout
        .split('\n')
        .filter((l) => / worker\b/.test(l))
        .map((l) => Number(l.trim().split(/\s+/)[0]));
      const pid = workers[between(0, workers.length - 1)];
      if (pid) process.kill(pid, 'SIGKILL');
    },
    'serve-kill': async () => {
      keepLog(serve)();
      serve.child.kill('SIGKILL');
      await new Promise((resolve) => serve.child.once('exit', resolve));
      serve = spawnServe(env);
      await untilReady(serve, base, 120_000);
    },
  };
  const injected = new Map<string, number>();
  const unknown = FAULTS?.filter((f) => !(f in faults));
  if (unknown?.length)
    throw new Error(`SOAK_FAULTS: no fault ${unknown.join(', ')} (${Object.keys(faults).join(', ')})`);

  const clients = Array.from({ length: IN_FLIGHT }, () => client());
  while (Date.now() < deadline) {
    await sleep(between(5, 25) * 1000);
    if (Date.now() >= deadline) break;
    const name = FAULTS
      ? (FAULTS[[...injected.values()].reduce((a, b) => a + b, 0) % FAULTS.length] as string)
      : (Object.keys(faults)[between(0, Object.keys(faults).length - 1)] as string);
    injected.set(name, (injected.get(name) ?? 0) + 1);
    console.log(`soak: ${new Date().toISOString()} ${name}`);
    activeFault = name;
    await faults[name]?.();
    activeFault = 'none';
  }
  stopping = true;
  await pg.startServer();
  dbProxy.thaw();
  redisProxy.refuse = false;
  s3Proxy.refuse = false;
  await Promise.allSettled(clients);

  // Every render that was created ends within SETTLE_MS, or it is lost.
  const ids = [...new Set(submitted.flatMap((s) => [...s.ids]))];
  const settleBy = Date.now() + SETTLE_MS;
  let rows: { id: string; status: string; error: { code?: string } | null; outputKey: string | null }[] = [];
  for (;;) {
    rows = await db.sql`SELECT id, status, error, output_key FROM renders WHERE id = ANY(${ids})`;
    if (rows.every((r) => r.status === 'done' || r.status === 'failed') || Date.now() > settleBy) break;
    await sleep(2000);
  }
  const charges = await db.sql<{ refId: string; n: number }[]>`
    SELECT ref_id, count(*)::int AS n FROM credit_ledger WHERE reason = 'render' AND ref_id = ANY(${ids}) GROUP BY ref_id`;
  const charged = new Map(charges.map((c) => [c.refId, c.n]));

  const lost: string[] = [];
  for (const s of submitted) {
    if (s.ids.size === 0) lost.push(`${s.key}: no render was created`);
    if (s.ids.size > 1) lost.push(`${s.key}: one Idempotency-Key made ${s.ids.size} renders`);
  }
  const failedBy = new Map<string, number>();
  let done = 0;
  const scratch = await mkdtemp(path.join(tmpdir(), 'fw-soak-out-'));
  for (const r of rows) {
    if (r.status === 'done') {
      done++;
      // The account's rate limit holds for the check too: a 429 is waited out.
      let res = await fetch(`${base}/v1/renders/${r.id}`, { headers });
      while (res.status === 429) {
        await res.body?.cancel();
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        res = await fetch(`${base}/v1/renders/${r.id}`, { headers });
      }
      const { outputUrl } = (await res.json()) as { outputUrl?: string };
      if (!outputUrl) {
        lost.push(`${r.id}: done but GET /v1/renders/{id} (${res.status}) gives no outputUrl`);
        continue;
      }
      const video = await fetch(outputUrl).catch((err: Error) => err);
      if (video instanceof Error || !video.ok) {
        const why = video instanceof Error ? `${video.message} ${String(video.cause ?? '')}` : video.status;
        lost.push(`${r.id}: done but its output cannot be downloaded (${why})`);
        continue;
      }
      const file = path.join(scratch, `${r.id}.mp4`);
      await writeFile(file, Buffer.from(await video.arrayBuffer()));
      const probe = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'csv=p=0',
        file,
      ]).catch((err: Error) => ({ stdout: `error ${err.message}` }));
      if (!(Number(probe.stdout) > 0))
        lost.push(`${r.id}: done but its output does not decode (${probe.stdout.trim()})`);
    } else if (r.status === 'failed') {
      const code = r.error?.code ?? 'unknown';
      failedBy.set(code, (failedBy.get(code) ?? 0) + 1);
      if (charged.has(r.id)) lost.push(`${r.id}: failed ${code} and was charged`);
    } else {
      lost.push(`${r.id}: still ${r.status} ${SETTLE_MS / 60_000} min after the faults stopped`);
    }
  }
  const twice = [...charged].filter(([, n]) => n > 1);

  console.log('');
  console.log(`soak: seed ${SEED}, ${MINUTES} min`);
  console.log(`faults injected: ${[...injected].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  console.log(`requests: ${[...answers].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
  const slow = latencies.filter((ms) => ms > 2_500).length;
  console.log(
    `answer times: median ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms; ${slow} of ${latencies.length} over 2.5 s`,
  );
  console.log(`slowest answer by fault: ${[...slowest].map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ')}`);
  console.log(`renders submitted ${submitted.length}, created ${ids.length}`);
  console.log(`renders done         ${done}`);
  console.log(`renders failed       ${rows.filter((r) => r.status === 'failed').length}`);
  for (const [code, n] of failedBy) console.log(`  ${code}: ${n}`);
  console.log(`renders lost         ${lost.length} (must be 0)`);
  for (const l of lost.slice(0, 20)) console.log(`  ${l}`);
  console.log(`renders charged twice ${twice.length} (must be 0)`);
  for (const [id, n] of twice.slice(0, 20)) console.log(`  ${id}: ${n} charges`);

  // What is left once retention has run. Time moves on for what it measures (no output is kept
  // for fewer than 30 days, no idempotency record for fewer than 24 hours, so the database is told),
  // and serve restarts: its start-up sweeps run at once, and its scratch sweep again two leases later.
  await sampleMemory();
  clearInterval(sampler);
  keepLog(serve)();
  await stopServe(serve);
  await db.sql`UPDATE renders SET expires_at = now() - interval '1 second' WHERE expires_at IS NOT NULL`;
  await db.sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`;
  serve = spawnServe(env);
  await untilReady(serve, base, 60_000);
  const objectsLeft = async () => {
    const left = new Map<string, number>();
    for (const prefix of PREFIXES) {
      let n = 0;
      let token: string | undefined;
      do {
        const page = await s3Client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        n += page.KeyCount ?? 0;
        token = page.NextContinuationToken;
      } while (token);
      left.set(prefix, n);
    }
    return left;
  };
  const scratchLeft = async () => {
    const list = (dir: string) => readdir(dir).catch(() => [] as string[]);
    return new Map([
      ['DATA_DIR/tmp/renders', (await list(path.join(dataDir, 'tmp', 'renders'))).length],
      ['DATA_DIR/tmp/uploads', (await list(path.join(dataDir, 'tmp', 'uploads'))).length],
      ['worker temporary directories', (await list(workerTmp)).filter((n) => n.startsWith('framewright-')).length],
    ]);
  };
  const rowsLeft = async () => {
    const [row] = await db.sql<{ outputs: number; idempotency: number; deliveries: number; unfinished: number }[]>`
      SELECT
        (SELECT count(*) FROM renders WHERE output_key IS NOT NULL AND output_deleted_at IS NULL)::int AS outputs,
        (SELECT count(*) FROM idempotency_keys)::int AS idempotency,
        (SELECT count(*) FROM webhook_outbox WHERE delivered_at IS NOT NULL OR gave_up_at IS NOT NULL)::int AS deliveries,
        (SELECT count(*) FROM renders WHERE status NOT IN ('done', 'failed'))::int AS unfinished`;
    return new Map([
      ['renders with an expired output not deleted', row?.outputs ?? -1],
      ['idempotency records past their window', row?.idempotency ?? -1],
      ['finished webhook deliveries', row?.deliveries ?? -1],
      ['renders not finished', row?.unfinished ?? -1],
    ]);
  };
  const total = (...maps: Map<string, number>[]) => maps.flatMap((m) => [...m.values()]).reduce((a, b) => a + b, 0);
  let objects = await objectsLeft();
  let files = await scratchLeft();
  let tables = await rowsLeft();
  for (
    const until = Date.now() + (2 * LEASE_SEC + 60) * 1000;
    total(objects, files, tables) > 0 && Date.now() < until;
  ) {
    await sleep(2000);
    [objects, files, tables] = [await objectsLeft(), await scratchLeft(), await rowsLeft()];
  }
  const left = total(objects, files, tables);
  console.log(`left after retention  ${left} (must be 0)`);
  console.log(`  objects: ${[...objects].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`  files: ${[...files].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  // What is left, named, with what each scratch directory says of its owner: enough to find why.
  for (const dir of [path.join(dataDir, 'tmp', 'renders'), path.join(dataDir, 'tmp', 'uploads'), workerTmp]) {
    for (const name of (await readdir(dir).catch(() => [] as string[])).slice(0, 10)) {
      const owner = await readFile(path.join(dir, name, '.owner'), 'utf8').catch(() => 'no owner note');
      const inside = await readdir(path.join(dir, name)).catch(() => [] as string[]);
      console.log(
        `    ${path.relative(dataDir, path.join(dir, name))}: owner ${owner.trim()}; holds ${inside.join(' ')}`,
      );
    }
  }
  console.log(`  rows: ${[...tables].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  // Flat: no incarnation grows after its first minute, and the last starts where the first did.
  const settled = [...memory.values()].filter((m) => m.settled !== undefined);
  const mib = (n: number | undefined) => `${(n ?? 0).toFixed(0)} MiB`;
  const longest = settled.sort((a, b) => b.at - b.from - (a.at - a.from))[0];
  const byStart = [...settled].sort((a, b) => a.from - b.from);
  console.log(
    `serve memory (RSS)    ${memory.size} incarnations; ${
      longest
        ? `the longest (${((longest.at - longest.from) / 60_000).toFixed(1)} min): ${mib(longest.settled)} after its first minute, ${mib(longest.last)} at its end; a minute after starting, the first ${mib(byStart[0]?.settled)}, the last ${mib(byStart.at(-1)?.settled)}`
        : 'none lived a minute'
    }`,
  );

  keepLog(serve)();
  await stopServe(serve);
  if (lost.length || twice.length || left) {
    const logFile = path.join(tmpdir(), `fw-soak-${SEED}.log`);
    await writeFile(logFile, serveLog.join('\n'));
    console.log(`serve's log: ${logFile}`);
  }
  await db.close();
  await Promise.all([dbProxy.close(), redisProxy.close(), s3Proxy.close()]);
  await pg.destroy();
  await rm(dataDir, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
  process.exit(lost.length || twice.length || left ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
