import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, HMAC-SHA256 keyed with the secret's base64-decoded
 * bytes, sent as `webhook-signature: v1,<base64>`. Secrets look like `whsec_<base64>`.
 */
const SECRET_PREFIX = 'whsec_';

/** A new per-account signing secret: 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function secretBytes(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new TypeError('A webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signWebhook(secret: string, messageId: string, timestampSec: number, body: string): SignedHeaders {
  const timestamp = String(Math.floor(timestampSec));
  const mac = createHmac('sha256', secretBytes(secret)).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
}

/**
 * Verifies a delivery as a receiver would: any of the space-separated `v1,` signatures may match
 * (secret rotation sends two), compared in constant time, timestamp within `toleranceSec`.
 */
export function verifyWebhook(
  secret: string,
  headers: SignedHeaders,
  body: string,
  nowSec: number,
  toleranceSec = 300,
): boolean {
  const timestamp = Number(headers['webhook-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(nowSec - timestamp) > toleranceSec) return false;
  const expected = Buffer.from(
    signWebhook(secret, headers['webhook-id'], timestamp, body)['webhook-signature'].slice(3),
    'base64',
  );
  return headers['webhook-signature'].split(' ').some((part) => {
    if (!part.startsWith('v1,')) return false;
    const given = Buffer.from(part.slice(3), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
