/**
 * Whether an error means "the database cannot be reached right now" (stopped, restarting, failing
 * over, network gone) rather than "this query is wrong". Callers treat the first kind as transient:
 * the API answers 503 SERVICE_UNAVAILABLE with Retry-After, background loops back off and retry.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const { code, errors } = e as { code?: unknown; errors?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    // Node reports a refused connect to a host with several addresses as an AggregateError.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Socket errors and postgres.js's own connection states. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // A request's database step past its deadline, or refused while the database is known down
  // (db-deadline.ts).
  'DATABASE_TIMEOUT',
  'DATABASE_DOWN',
]);

/**
 * SQLSTATEs of an unavailable server: class 08 (connection exception), 57P01-57P03 (admin or
 * crash shutdown, cannot connect now: starting up), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
