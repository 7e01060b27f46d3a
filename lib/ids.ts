import { randomBytes } from 'node:crypto';

/** Resource id prefixes of ARCHITECTURE.md. */
export type IdPrefix = 'rnd' | 'tpl' | 'scr' | 'acc' | 'key' | 'ast' | 'evt' | 'req' | 'msg' | 'prv';

// Crockford base32 in lower case: URL-safe, case-insensitive readable, sorts like the number.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeTime(ms: number): string {
  let out = '';
  let n = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

// Random bytes are drawn from the CSPRNG 4 KiB at a time and handed out in order, each byte once:
// one draw per 256 ids instead of one per id (a request id is made for every request).
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function encodeRandom(length: number): string {
  if (poolOffset + length > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[(pool[poolOffset + i] as number) & 31];
  poolOffset += length;
  return out;
}

/**
 * A prefixed, time-sortable, URL-safe id: `rnd_` + 10 chars of milliseconds + 16 random chars
 * (80 bits). Ids made later sort later, so `ORDER BY id DESC` agrees with creation order.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom(16)}`;
}

const ID_RE = /^[a-z]{3}_[0-9a-hjkmnp-tv-z]{26}$/;

/** True when `value` looks like an id with the given prefix (cheap check before a lookup). */
export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_RE.test(value);
}
