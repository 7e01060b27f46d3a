import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { createApiMetrics } from '../../api/app.ts';
import { createPipeline, type Pipeline, pipelineConfig } from '../../api/execution/pipeline.ts';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import type { ApiMetrics } from '../../lib/metrics/api-metrics.ts';
import type { Database } from '../../store/database.ts';
import { logger, startApp, testConfig } from '../api/helpers.ts';
import { freePort } from '../services/free-port.ts';

export const run = promisify(execFile);
export { freePort };

/** A clock the test moves forward (retention, webhook backoff) without sleeping. */
class TestClock {
  offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface Stack {
  app: FastifyInstance;
  pipeline: Pipeline;
  /** One registry for the app and the executor, as `serve` makes it. */
  metrics: ApiMetrics;
  base: string;
  clock: TestClock;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The product on one machine as `serve` assembles it, on a real socket: API, in-process executor
 * with real worker processes, local object storage. The webhook dispatcher is driven by the test.
 */
export async function startStack(
  db: Database,
  opts: { allowPrivate?: boolean; s3Bucket?: string } = {},
): Promise<Stack> {
  const allowPrivate = String(opts.allowPrivate ?? true);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const clock = new TestClock();
  const api = testConfig({ publicBaseUrl: base, dataDir, allowPrivateUrls: allowPrivate === 'true' });
  const { values } = readEnv(EnvSchema, {
    ALLOW_PRIVATE_URLS: allowPrivate,
    RENDER_CONCURRENCY: '2',
    ...(opts.s3Bucket
      ? {
          S3_BUCKET: opts.s3Bucket,
          S3_ENDPOINT: process.env.TEST_S3_ENDPOINT,
          S3_ACCESS_KEY_ID: 'test',
          S3_SECRET_ACCESS_KEY: 'test',
        }
      : {}),
  });
  const metrics = createApiMetrics(db);
  const pipeline = await createPipeline({
    api,
    config: pipelineConfig(values, process.env),
    db,
    logger,
    metrics,
    now: clock.now,
    executor: { pollMs: 200, workerEnv: { ...process.env, ALLOW_PRIVATE_URLS: allowPrivate, LOG_LEVEL: 'warn' } },
  });
  const app = await startApp(db, {
    config: api,
    executor: pipeline.executor,
    objects: pipeline.objects,
    links: pipeline.links,
    metrics,
    now: clock.now,
  });
  await app.listen({ port, host: '127.0.0.1' });
  pipeline.executor.start();
  return {
    app,
    pipeline,
    metrics,
    base,
    clock,
    dataDir,
    async close() {
      await app.close();
      await pipeline.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small movie that renders in about a second of CPU: 320x180, one text, one colour. */
export function tinyMovie(extra: { elements?: unknown[]; duration?: number } = {}) {
  return {
    schema: 'v1',
    width: 320,
    height: 180,
    fps: 15,
    scenes: [
      {
        id: 's1',
        duration: extra.duration ?? 1,
        background: '#204080',
        elements: extra.elements ?? [{ id: 't1', type: 'text', text: 'Hi', fontSize: 40, color: '#ffffff' }],
      },
    ],
  };
}

export async function ffprobe(file: string): Promise<{
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; pix_fmt?: string }[];
  format: { duration: string };
}> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
  return JSON.parse(stdout);
}
