import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import { EVICT_ALL_KEYS, findKeyByHash, findKeyById, KEY_CHANGES_CHANNEL } from '../../store/api-keys-repo.ts';
import { listenForChanges } from '../../store/database.ts';
import { hashApiKey, KEY_PATTERN } from '../auth/api-key.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { KeyCache } from '../auth/key-cache.ts';
import { LastUsedRecorder } from '../auth/last-used.ts';
import { UNAUTHORIZED_MESSAGE } from '../auth/require-auth.ts';
import { isPreviewToken, verifyPreviewToken } from '../previews/preview-token.ts';
import { type GatedDecision, type LimitDecision, retryAfterSec, type Window } from '../rate-limit/limiter.ts';
import { rateWindow } from './rate-limit.ts';

const FAILURE_WINDOW_MS = 60_000;

function gateRefusal(gate: LimitDecision, now: number): AppError {
  return new AppError('RATE_LIMITED', 'Too many failed authentication attempts from this address.', {
    headers: { 'retry-after': String(retryAfterSec(gate, now)) },
  });
}

/**
 * Bearer authentication. Every path (missing header, malformed, unknown, revoked) hashes what was
 * sent and does the same single lookup, so failures cost the same as a success and answer the
 * same 401 envelope. Failed attempts are counted per client address; past the limit the address
 * gets 429 before any key is looked at in the database, so guessing cannot go on at full speed.
 * Verified keys are cached for AUTH_CACHE_TTL_MS; a cached key still passes the failure gate, in
 * the same limiter call that counts it against its rate limit (one Redis round trip per request).
 */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('auth', null);
    const cache = new KeyCache(app.config.authCacheTtlMs);
    app.decorate('keyCache', cache);
    // "Last used" of keys: at most one write a minute per key, off the request's path.
    const lastUsed = new LastUsedRecorder(app.db.sql, (err) => app.log.warn({ err }, 'could not record key use'));
    app.addHook('onClose', () => lastUsed.settle());
    // A revocation anywhere (another replica, the CLI) evicts the key here at once, and a plan
    // change evicts every key; so does a reconnect of the listener (it may have missed some). On
    // the embedded database the CLI writes through this server's wire server, which relays NOTIFY.
    if (cache.enabled) {
      const stop = await listenForChanges(
        app.db.sql,
        KEY_CHANGES_CHANNEL,
        (hash) => (hash === EVICT_ALL_KEYS ? cache.clear() : cache.delete(hash)),
        () => cache.clear(),
      );
      app.addHook('onClose', stop);
    }
    // The failure gate of each client address, made once (the same key string each time hashes
    // once in the limiter's maps); forgotten wholesale past 10,000 addresses.
    const gates = new Map<string, Window>();
    const gateOf = (ip: string): Window => {
      let gate = gates.get(ip);
      if (gate === undefined) {
        if (gates.size >= 10_000) gates.clear();
        gate = { key: `authfail:${ip}`, limit: app.config.authFailuresPerMinute, windowMs: FAILURE_WINDOW_MS };
        gates.set(ip, gate);
      }
      return gate;
    };

    /** A key not verified lately (or none, or a wrong one): the failure gate, then the database. */
    async function verify(request: FastifyRequest, token: string, hash: string, gate: Window, now: number) {
      const gateDecision = await app.limiter.peek(gate.key, gate.limit, gate.windowMs, now);
      if (!gateDecision.allowed) throw gateRefusal(gateDecision, now);
      const found = await findKeyByHash(app.db.sql, hash);
      const ok =
        found !== undefined &&
        KEY_PATTERN.test(token) &&
        timingSafeEqual(Buffer.from(found.keyHash, 'hex'), Buffer.from(hash, 'hex')) &&
        found.revokedAt === null;
      if (!ok || !found) {
        await app.limiter.hit(gate.key, gate.limit, gate.windowMs, now);
        throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
      }
      request.auth = { accountId: found.accountId, keyId: found.keyId, mode: found.mode, plan: found.plan };
      cache.set(hash, request.auth, now);
      lastUsed.touch(found.keyId, now);
    }

    /**
     * A preview token (api/previews/preview-token.ts): its signature and expiry, then its key, looked
     * up as a key is (a revoked key's tokens fail). Never cached: it expires within minutes, and
     * the routes that take one prepare previews, which cost far more than the lookup.
     */
    async function verifyPreview(request: FastifyRequest, token: string, gate: Window, now: number) {
      const gateDecision = await app.limiter.peek(gate.key, gate.limit, gate.windowMs, now);
      if (!gateDecision.allowed) throw gateRefusal(gateDecision, now);
      const named = verifyPreviewToken(app.links, token, new Date(now));
      const found = named && (await findKeyById(app.db.sql, named.keyId));
      if (!found || found.revokedAt !== null) {
        await app.limiter.hit(gate.key, gate.limit, gate.windowMs, now);
        throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
      }
      request.auth = {
        accountId: found.accountId,
        keyId: found.keyId,
        mode: found.mode,
        plan: found.plan,
        preview: true,
      };
    }

    /** A cached key's request once the limiter decided: the error to answer, if any. */
    function admit(request: FastifyRequest, cached: AuthContext, decided: GatedDecision, now: number) {
      if (!decided.hit) return gateRefusal(decided.gate, now);
      request.auth = cached;
      request.rateLimit = decided.hit;
      lastUsed.touch(cached.keyId, now);
      return undefined;
    }

    // A callback hook, not an async one: a cached key on an in-process limiter (the hot path)
    // passes without a promise or a microtask turn; the other paths finish through `done`.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config.public || request.is404) return done();
      const now = app.now().getTime();
      const gate = gateOf(request.ip);
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (isPreviewToken(token)) {
        // Only where a route takes one; anywhere else it is as unknown as a wrong key.
        if (!request.routeOptions.config.preview) return done(new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE));
        verifyPreview(request, token, gate, now).then(() => done(), done);
        return;
      }
      const hash = hashApiKey(token);
      const cached = cache.get(hash, now);
      if (!cached) {
        verify(request, token, hash, gate, now).then(() => done(), done);
        return;
      }
      // The hot path: a key verified a moment ago. The gate and the key's own rate limit are one
      // limiter call; the rate-limit plugin uses the decision instead of hitting again.
      const limiter = app.limiter;
      const window = rateWindow(app, cached);
      if (limiter.hitUnlessGatedNow) {
        done(admit(request, cached, limiter.hitUnlessGatedNow(gate, window, now), now));
        return;
      }
      limiter.hitUnlessGated(gate, window, now).then((decided) => done(admit(request, cached, decided, now)), done);
    });
  },
  { name: 'auth', dependencies: ['config', 'db', 'rate-limiter'] },
);
