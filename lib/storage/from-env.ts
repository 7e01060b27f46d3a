import path from 'node:path';
import { type Env, envBool } from '../config.ts';
import { LocalObjectStore } from './local-store.ts';
import type { ObjectStore } from './object-store.ts';
import { S3ObjectStore, type S3StoreOptions, type StoreLogger } from './s3-store.ts';

/** S3 settings from the environment; undefined when S3_BUCKET is unset (local disk then). */
export function s3OptionsFromEnv(values: Env): S3StoreOptions | undefined {
  if (!values.S3_BUCKET) return undefined;
  return {
    bucket: values.S3_BUCKET,
    region: values.S3_REGION ?? 'us-east-1',
    ...(values.S3_ENDPOINT ? { endpoint: values.S3_ENDPOINT } : {}),
    ...(values.S3_FORCE_PATH_STYLE ? { forcePathStyle: envBool(values.S3_FORCE_PATH_STYLE) } : {}),
    ...(values.S3_ACCESS_KEY_ID ? { accessKeyId: values.S3_ACCESS_KEY_ID } : {}),
    ...(values.S3_SECRET_ACCESS_KEY ? { secretAccessKey: values.S3_SECRET_ACCESS_KEY } : {}),
    ...(values.S3_RETRY_SEC ? { retryForMs: Number(values.S3_RETRY_SEC) * 1000 } : {}),
  };
}

/**
 * S3 when it is configured, else local disk under `dataDir/objects` (the embedded default).
 * `logger` hears of uploads that wait for an unreachable store.
 */
export function objectStore(s3: S3StoreOptions | undefined, dataDir: string, logger?: StoreLogger): ObjectStore {
  return s3
    ? new S3ObjectStore({ ...(logger ? { logger } : {}), ...s3 })
    : new LocalObjectStore(path.join(dataDir, 'objects'));
}

/** The object store the environment names: S3 when S3_BUCKET is set, else DATA_DIR/objects. */
export function objectStoreFromEnv(values: Env, logger?: StoreLogger): ObjectStore {
  return objectStore(s3OptionsFromEnv(values), values.DATA_DIR ?? './data', logger);
}
