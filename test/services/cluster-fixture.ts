import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { newId } from '../../lib/ids.ts';
import type { S3StoreOptions } from '../../lib/storage/s3-store.ts';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import type { Queryable } from '../../store/database.ts';
import { insertRender } from '../../store/renders-repo.ts';
import type { RenderRow } from '../../store/types.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `fn` until it gives a value (not undefined or false; a throw counts as not yet) and
 * returns it; throws naming `what` after `timeoutMs`.
 */
export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 120_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A bucket of its own on the test S3 server (moto, which takes any credentials). */
export interface TestBucket {
  bucket: string;
  client: S3Client;
  /** For S3ObjectStore (add `bucket`). */
  options: Omit<S3StoreOptions, 'bucket'>;
  /** What a Framewright process reads (S3_BUCKET, S3_ENDPOINT, ...). */
  env: Record<string, string>;
}

export async function testBucket(endpoint: string, prefix: string): Promise<TestBucket> {
  const bucket = `${prefix}-${Date.now()}`;
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    bucket,
    client,
    options: { region: 'us-east-1', endpoint, forcePathStyle: true, ...credentials },
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
  };
}

/**
 * A render row as POST /v1/renders commits it (queued, 320x180 at 15 fps, 1 s estimated, 1 credit
 * reserved), for tests and benchmarks that hand it to the cluster executor themselves.
 */
export function insertQueuedRender(
  sql: Queryable,
  r: { accountId: string; keyId: string; movie: Record<string, unknown>; now?: Date },
): Promise<RenderRow> {
  const now = r.now ?? new Date();
  return insertRender(sql, {
    id: newId('rnd', now.getTime()),
    accountId: r.accountId,
    mode: 'live',
    keyId: r.keyId,
    draft: false,
    watermark: false,
    movie: r.movie,
    outputFormat: movieOutputFormat(r.movie),
    width: 320,
    height: 180,
    fps: 15,
    estimatedSec: 1,
    reservedCredits: 1,
    templateId: null,
    webhookUrl: null,
    createdAt: now,
  });
}
