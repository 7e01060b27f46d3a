import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from './auth-context.ts';

/** The caller of an authenticated route (the auth hook has run, so this only guards mistakes). */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
  return request.auth;
}

/** One message for every authentication failure, so responses never tell the failures apart. */
export const UNAUTHORIZED_MESSAGE = 'Missing or invalid API key. Send Authorization: Bearer <key> with an active key.';
