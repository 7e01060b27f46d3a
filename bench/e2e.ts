/**
 * `framewright bench e2e` (`make bench-e2e`): 20 renders of examples/hello.json posted at once to
 * the product on one machine (API + in-process executor + embedded PGlite + local storage).
 * Prints total wall time, renders per minute, p50/p95 from POST to done, and beside them the
 * renderer's own time measured in the same run (the workers' render time, summed). Pipeline
 * overhead = wall time not spent rendering while the pool is busy:
 *   overhead = 1 - (sum of render time / pool size) / wall time.   Target: under 5%.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../api/app.ts';
import { createAccountWithKey } from '../api/auth/provision.ts';
import { apiConfig } from '../api/config.ts';
import { createPipeline, pipelineConfig } from '../api/execution/pipeline.ts';
import { EnvSchema, readEnv } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { openDatabase } from '../store/database.ts';

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;

export async function main(argv: string[]): Promise<number> {
  const { values: args } = parseArgs({
    args: argv,
    options: { renders: { type: 'string', default: '20' }, concurrency: { type: 'string' } },
  });
  const count = Number(args.renders);
  const pool = Number(args.concurrency ?? availableParallelism());
  const movie = JSON.parse(readFileSync(new URL('../examples/hello.json', import.meta.url), 'utf8'));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-bench-e2e-'));
  const logger = createLogger({ level: 'warn', name: 'bench' });
  const { values } = readEnv(EnvSchema, {
    RENDER_CONCURRENCY: String(pool),
    PLAN_CONCURRENCY: `studio=${count}`,
    // The bench polls every render every 100 ms; the plan's request limit must not throttle it.
    PLAN_RATE_LIMITS: 'studio=999999',
  });
  const api = apiConfig(values, { dataDir, port: 0, publicBaseUrl: 'http://127.0.0.1' });
  const db = await openDatabase({ dataDir, logger });
  const pipeline = await createPipeline({
    api,
    config: pipelineConfig(values, process.env),
    db,
    logger,
    executor: { pollMs: 100 },
  });
  const app = await buildApp({
    config: api,
    db,
    logger,
    executor: pipeline.executor,
    objects: pipeline.objects,
    links: pipeline.links,
  });
  const pool0 = pipeline.inProcess;
  if (!pool0) throw new Error('bench e2e measures the in-process executor: unset RENDER_EXECUTOR');
  try {
    const { key } = await createAccountWithKey(db, { plan: 'studio', credits: 100_000, name: 'bench' });
    const auth = { authorization: `Bearer ${key.secret}` };
    // A server warms its worker processes once, at start; the bench measures from a warm pool.
    await pool0.warm();
    pool0.start();
    const t0 = performance.now();
    const posted = await Promise.all(
      Array.from({ length: count }, async () => {
        const res = await app.inject({ method: 'POST', url: '/v1/renders', headers: auth, payload: { movie } });
        if (res.statusCode !== 201) throw new Error(`POST /v1/renders answered ${res.statusCode}: ${res.body}`);
        return { id: res.json<{ id: string }>().id, at: performance.now() };
      }),
    );
    const finished = new Map<string, number>();
    while (finished.size < count) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const { id } of posted) {
        if (finished.has(id)) continue;
        const res = await app.inject({ method: 'GET', url: `/v1/renders/${id}`, headers: auth });
        if (res.statusCode !== 200) throw new Error(`GET /v1/renders/${id} answered ${res.statusCode}: ${res.body}`);
        const r = res.json<{ status: string; error: unknown }>();
        if (r.status === 'failed') throw new Error(`render ${id} failed: ${JSON.stringify(r.error)}`);
        if (r.status === 'done') finished.set(id, performance.now());
      }
    }
    const wall = performance.now() - t0;
    const latencies = posted.map((p) => (finished.get(p.id) as number) - p.at).sort((a, b) => a - b);
    const { renderMs } = pool0.stats;
    const busy = renderMs / pool;
    const rows: [string, string][] = [
      ['renders', `${count} (hello.json, ${pool} worker processes)`],
      ['total wall time', `${(wall / 1000).toFixed(1)} s`],
      ['renders per minute', ((count / wall) * 60_000).toFixed(1)],
      ['first render done after', `${((latencies[0] ?? 0) / 1000).toFixed(1)} s`],
      ['POST -> done p50', `${(pct(latencies, 0.5) / 1000).toFixed(1)} s`],
      ['POST -> done p95', `${(pct(latencies, 0.95) / 1000).toFixed(1)} s`],
      [
        'baseline: renderer time, summed',
        `${(renderMs / 1000).toFixed(1)} s (${(busy / 1000).toFixed(1)} s per worker slot)`,
      ],
      ['pipeline overhead', `${((1 - busy / wall) * 100).toFixed(1)} % of wall time (target < 5 %)`],
    ];
    if (process.env.BENCH_VERBOSE)
      process.stdout.write(`latencies s: ${latencies.map((l) => (l / 1000).toFixed(1)).join(' ')}\n`);
    const width = Math.max(...rows.map(([k]) => k.length));
    process.stdout.write(`\nbench e2e\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')}\n`);
    return 0;
  } finally {
    await app.close();
    await pipeline.close();
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
