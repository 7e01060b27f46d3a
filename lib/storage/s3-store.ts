import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type PutObjectCommandInput,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type BackoffPolicy, retryTransient } from '../backoff.ts';
import { AppError } from '../errors.ts';
import {
  assertObjectKey,
  type ByteRange,
  type ObjectBody,
  type ObjectInfo,
  type ObjectStore,
  type RetryOptions,
} from './object-store.ts';

/** How long a call waits out an unreachable object store, by default (S3_RETRY_SEC): 2 minutes. */
const DEFAULT_RETRY_MS = 120_000;

/** Between attempts of a call: 0.5 s doubling to 8 s, jittered (lib/backoff.ts). */
const STORE_BACKOFF: BackoffPolicy = { baseMs: 500, factor: 2, capMs: 8_000 };

/** A connection that does not open in this time is a failed attempt (a black-holed endpoint). */
const CONNECT_TIMEOUT_MS = 5_000;
/** A socket silent this long (no byte either way) is a failed attempt, not a wait without end. */
const IDLE_TIMEOUT_MS = 30_000;

/** Network errors worth waiting out: the store or the way to it is down for now. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ERR_STREAM_PREMATURE_CLOSE',
]);
/** S3 error names of a store that is busy or restarting (most also come with a 5xx). */
const TRANSIENT_NAMES: ReadonlySet<string> = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'SlowDown',
  'ServiceUnavailable',
  'InternalError',
  'Throttling',
  'ThrottlingException',
]);

/**
 * Whether an object-store call failed for a reason that passes: a refused, reset or timed-out
 * connection, a 5xx, 408 or 429 answer, SlowDown. A 4xx (no such bucket, access denied, a bad
 * request) is not: waiting would not change it.
 */
function isTransientStoreError(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status !== undefined && (status >= 500 || status === 408 || status === 429)) return true;
  if (TRANSIENT_NAMES.has(err.name)) return true;
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== undefined && TRANSIENT_CODES.has(code)) return true;
  return isTransientStoreError(err.cause, depth + 1);
}

/**
 * Whether `err` is an object-store call (the AWS SDK marks its errors with `$metadata`) that failed
 * for a passing reason: what a request answers 503 for, naming the store, not the database.
 */
export function isObjectStoreUnavailable(err: unknown): boolean {
  return err instanceof Error && '$metadata' in err && isTransientStoreError(err);
}

/** What went wrong, short and without the endpoint's address (it ends up in a render's error). */
function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (typeof e.code === 'string') return e.code;
  if (status !== undefined) return `HTTP ${status}${typeof e.name === 'string' ? ` ${e.name}` : ''}`;
  return typeof e.name === 'string' ? e.name : 'unknown error';
}

/** Where the store says it waits (a pino logger fits). */
export interface StoreLogger {
  warn(obj: object, msg: string): void;
}

export interface S3StoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Key prefix inside the bucket, so several installations can share one. */
  prefix?: string;
  /**
   * How long an upload waits out an unreachable store (refused or reset connections, timeouts,
   * 5xx, SlowDown), retrying with backoff, before it fails with STORAGE_UNAVAILABLE.
   * Default DEFAULT_RETRY_MS; 0 tries once.
   */
  retryForMs?: number;
  /** Told of each failed upload attempt that will be retried. */
  logger?: StoreLogger;
  /** Socket timeouts of one attempt (tests shorten them); defaults 5 s to connect, 30 s idle. */
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/** A logger for the SDK that drops what it says (our own retries log each failed attempt). */
const SDK_QUIET = { debug() {}, info() {}, warn() {}, error() {}, trace() {} };

function isNotFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404)
  );
}

/** The CRC32 of a file's bytes as S3's x-amz-checksum-crc32 takes it: 4 bytes big-endian, base64. */
export async function fileCrc32(path: string): Promise<string> {
  let value = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) value = crc32(chunk as Buffer, value);
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out.toString('base64');
}

/** Objects in an S3 bucket (AWS, MinIO, Ceph, R2...). Credentials fall back to the SDK's chain. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;
  private readonly retryForMs: number;
  private readonly logger: StoreLogger | undefined;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${options.prefix.replace(/\/+$/, '')}/` : '';
    this.retryForMs = options.retryForMs ?? DEFAULT_RETRY_MS;
    this.logger = options.logger;
    this.client = new S3Client({
      region: options.region,
      // Without these a black-holed endpoint holds a request for ever, and nothing is retried.
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
        socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
      },
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
      // The SDK writes some warnings with console.warn when it has no logger of its own (one plain
      // line per failed streamed upload: "An error was encountered in a non-retryable streaming
      // request"), which breaks a JSON log; what they say, the retry below logs itself.
      logger: SDK_QUIET,
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
  }

  private keyOf(key: string): string {
    assertObjectKey(key);
    return this.prefix + key;
  }

  /**
   * One call to the store (a put, a read, a HEAD, a delete), retried while the store is
   * unreachable, for up to the retry window. The SDK's own retries cannot do this: a streamed body
   * is never retried (it was consumed), and the rest get 3 attempts within about 0.1 s. So each
   * attempt here starts anew (an upload's `body()` reopens its file). Once the window has passed,
   * the call fails with STORAGE_UNAVAILABLE (a platform fault, which a request answers 503 naming
   * the store); an error that waiting would not change (a 4xx) is thrown at once, as it is.
   */
  private async retried<T>(
    action: 'store' | 'read' | 'delete',
    key: string,
    attempt: () => Promise<T>,
    options: RetryOptions,
  ): Promise<T> {
    const windowMs = Math.max(0, Math.min(options.retryForMs ?? this.retryForMs, this.retryForMs));
    const started = Date.now();
    // Aborting ends the wait between attempts: one last attempt runs, and its error is thrown.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), windowMs);
    timer.unref();
    try {
      return await retryTransient(attempt, {
        isTransient: (err) => windowMs > 0 && isTransientStoreError(err),
        signal: stop.signal,
        policy: STORE_BACKOFF,
        onRetry: (err, n, delayMs) =>
          this.logger?.warn(
            { key, action, attempt: n, retryInMs: delayMs, reason: reasonOf(err), err },
            action === 'store'
              ? 'the object store did not take the upload; retrying'
              : `the object store did not answer a ${action}; retrying`,
          ),
      });
    } catch (err) {
      if (!isTransientStoreError(err)) throw err;
      const seconds = Math.round((Date.now() - started) / 1000);
      throw new AppError(
        'STORAGE_UNAVAILABLE',
        `The object store could not be reached to ${action} ${key} (${reasonOf(err)}, for ${seconds} s).`,
        { cause: err },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** An upload: each attempt sends a new body (`body()`), and closes it if it was left unread. */
  private upload(
    key: string,
    body: () => PutObjectCommandInput['Body'],
    extra: Omit<PutObjectCommandInput, 'Bucket' | 'Key' | 'Body'>,
    options: RetryOptions,
  ): Promise<unknown> {
    const Key = this.keyOf(key);
    return this.retried(
      'store',
      key,
      async () => {
        const Body = body();
        try {
          return await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body, ...extra }));
        } finally {
          // A failed attempt may leave its file stream unread: close it (each attempt opens its own).
          if (Body instanceof Readable) Body.destroy();
        }
      },
      options,
    );
  }

  /**
   * A file, streamed, with its CRC32 in a header (the store checks the bytes it got against it).
   * Given no checksum, the SDK would compute one on the way and send it as a trailer of an
   * `aws-chunked` body, which some S3-compatible stores refuse or decode slowly (moto takes 22 s for
   * 90 MiB that it takes in 0.6 s plain); one read of the file beforehand costs about 0.1 s.
   */
  async putFile(key: string, path: string, contentType: string, options: RetryOptions = {}): Promise<ObjectInfo> {
    const { size } = await stat(path);
    const ChecksumCRC32 = await fileCrc32(path);
    await this.upload(
      key,
      () => createReadStream(path),
      { ContentLength: size, ContentType: contentType, ChecksumCRC32 },
      options,
    );
    return { size, contentType };
  }

  async putBuffer(key: string, data: Buffer, contentType: string, options: RetryOptions = {}): Promise<ObjectInfo> {
    await this.upload(key, () => data, { ContentType: contentType }, options);
    return { size: data.length, contentType };
  }

  /** A read, retried as every call is; a missing object is null (a 404 is an answer, not an outage). */
  private read<T>(key: string, options: RetryOptions, call: (Key: string) => Promise<T>): Promise<T | null> {
    const Key = this.keyOf(key);
    return this.retried(
      'read',
      key,
      async () => {
        try {
          return await call(Key);
        } catch (err) {
          if (isNotFound(err)) return null;
          throw err;
        }
      },
      options,
    );
  }

  head(key: string, options: RetryOptions = {}): Promise<ObjectInfo | null> {
    return this.read(key, options, async (Key) => {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? 'application/octet-stream' };
    });
  }

  /** Retried until the store answers; the body then streams as it comes (a cut then is the reader's error). */
  get(key: string, range?: ByteRange, options: RetryOptions = {}): Promise<ObjectBody | null> {
    return this.read(key, options, async (Key) => {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = out.ContentRange ? Number(out.ContentRange.split('/')[1]) : (out.ContentLength ?? 0);
      const body: ObjectBody = {
        body: out.Body as Readable,
        size: total,
        contentType: out.ContentType ?? 'application/octet-stream',
      };
      if (range) body.range = range;
      return body;
    });
  }

  async delete(key: string, options: RetryOptions = {}): Promise<void> {
    const Key = this.keyOf(key);
    await this.retried(
      'delete',
      key,
      () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })),
      options,
    );
  }

  presignGet(key: string, expiresInSec: number, downloadName?: string): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        ...(downloadName ? { ResponseContentDisposition: `attachment; filename="${downloadName}"` } : {}),
      }),
      { expiresIn: expiresInSec },
    );
  }
}
