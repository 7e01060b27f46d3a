import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import { findKeyByHash } from '../../store/api-keys-repo.ts';
import { hashApiKey, KEY_PATTERN } from '../auth/api-key.ts';
import { UNAUTHORIZED_MESSAGE } from '../auth/require-auth.ts';
import { retryAfterSec } from '../rate-limit/limiter.ts';

const FAILURE_WINDOW_MS = 60_000;

/**
 * Bearer authentication. Every path (missing header, malformed, unknown, revoked) hashes what was
 * sent and does the same single lookup, so failures cost the same as a success and answer the
 * same 401 envelope. Failed attempts are counted per client address; past the limit the address
 * gets 429 before any key is looked at, so guessing cannot go on at full speed.
 */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.public || request.is404) return;
      const now = app.now().getTime();
      const failKey = `authfail:${request.ip}`;
      const limit = app.config.authFailuresPerMinute;
      const gate = await app.limiter.peek(failKey, limit, FAILURE_WINDOW_MS, now);
      if (!gate.allowed) {
        throw new AppError('RATE_LIMITED', 'Too many failed authentication attempts from this address.', {
          headers: { 'retry-after': String(retryAfterSec(gate, now)) },
        });
      }
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const hash = hashApiKey(token);
      const found = await findKeyByHash(app.db.sql, hash);
      const ok =
        found !== undefined &&
        KEY_PATTERN.test(token) &&
        timingSafeEqual(Buffer.from(found.keyHash, 'hex'), Buffer.from(hash, 'hex')) &&
        found.revokedAt === null;
      if (!ok || !found) {
        await app.limiter.hit(failKey, limit, FAILURE_WINDOW_MS, now);
        throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
      }
      request.auth = { accountId: found.accountId, keyId: found.keyId, mode: found.mode, plan: found.plan };
    });
  },
  { name: 'auth', dependencies: ['config', 'db', 'rate-limiter'] },
);
