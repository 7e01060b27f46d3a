import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import { isObjectStoreUnavailable } from '../../lib/storage/s3-store.ts';
import { inRequestScope, type RequestScope, runInRequestScope } from '../../store/db-deadline.ts';
import { isDatabaseUnavailable } from '../../store/db-unavailable.ts';
import { payloadTooLarge } from '../http/body-limit.ts';
import { envelopeOf } from '../http/envelope.ts';
import { ajvFindings } from '../http/validation.ts';

/** Seconds a client waits before retrying during a database outage (a restart takes a few). */
const DATABASE_RETRY_AFTER_SEC = 5;

/** The 503 of a request (or a readiness probe) that could not reach the database. */
export function databaseUnavailable(
  cause: unknown,
  message = 'The service cannot reach its database. Retry shortly.',
): AppError {
  return new AppError('SERVICE_UNAVAILABLE', message, {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SEC) },
    cause,
  });
}

/** The 503 of a request whose object store (S3) could not be reached. */
function objectStoreUnavailable(cause: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The object store cannot be reached right now. Retry shortly.', {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SEC) },
    cause,
  });
}

const CONTENT_TYPE_HINT = 'Send the body as JSON with Content-Type: application/json.';

/** What the error handler needs of the request that failed. */
export interface FailedRequest {
  method: string;
  url: string;
  /** The body limit of the route that took the request (its own, else the server's). */
  bodyLimit: () => number;
}

function failedRequest(request: FastifyRequest): FailedRequest {
  // Read only for a 413: a request the router refused has no route options to speak of.
  return { method: request.method, url: request.url, bodyLimit: () => request.routeOptions.bodyLimit };
}

/**
 * An error Fastify raised itself (routing, reading or parsing the body) as a catalogued 4xx.
 * Every client error keeps a 4xx: one Fastify adds later falls back on its status, never on 500.
 */
function clientError(fe: FastifyError, request: FailedRequest): AppError | undefined {
  const path = request.url.split('?')[0] ?? '';
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(request.bodyLimit());
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('VALIDATION_ERROR', CONTENT_TYPE_HINT, { path: 'headers.content-type' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('VALIDATION_ERROR', 'The request body is empty; send a JSON object.', { path: '' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('VALIDATION_ERROR', 'The request body is not valid JSON.', { path: '' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('VALIDATION_ERROR', 'The request body does not match its Content-Length.', {
        path: 'headers.content-length',
      });
    // A path that cannot be decoded, or with a segment longer than any id, names nothing we
    // serve: 404 like any unknown path or id.
    case 'FST_ERR_BAD_URL':
      return new AppError('NOT_FOUND', `No route ${request.method} ${path}: it is not valid percent-encoded UTF-8.`);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError(
        'NOT_FOUND',
        `No route ${request.method} ${path.slice(0, 60)}…: a segment is longer than any id.`,
      );
  }
  const status = fe.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  switch (status) {
    case 404:
      return new AppError('NOT_FOUND', `No route ${request.method} ${path}.`);
    case 408:
      return new AppError('REQUEST_TIMEOUT', 'The request did not arrive in time.');
    case 413:
      return payloadTooLarge(request.bodyLimit());
    case 415:
      return new AppError('VALIDATION_ERROR', CONTENT_TYPE_HINT, { path: 'headers.content-type' });
    case 431:
      return new AppError('HEADERS_TOO_LARGE', 'The request headers are too large.');
    default:
      // E.g. a body stream the client cut off: Fastify marks it 400.
      return new AppError('VALIDATION_ERROR', 'The request could not be read.', { path: '' });
  }
}

/** Turns anything thrown into the spec's envelope; 5xx details go to the log, never the client. */
export function toAppError(err: FastifyError | Error, request: FailedRequest): AppError {
  // A store call that stayed unreachable through its retry window (lib/storage/s3-store.ts): to a
  // client, as any backing service out of reach.
  if (err instanceof AppError) return err.code === 'STORAGE_UNAVAILABLE' ? objectStoreUnavailable(err) : err;
  // An object store or database restart is not our fault nor the client's: say when to come
  // back. The store first: its connection errors carry the same errno codes as the database's.
  if (isObjectStoreUnavailable(err)) return objectStoreUnavailable(err);
  if (isDatabaseUnavailable(err)) return databaseUnavailable(err);
  const fe = err as FastifyError;
  if (fe.validation) {
    const findings = ajvFindings(fe.validation as never, fe.validationContext);
    if (findings.length > 0) return AppError.fromFindings(findings);
  }
  const client = clientError(fe, request);
  if (client) return client;
  // Anything else is ours (a SyntaxError too: bodies are parsed by json-parser.ts, which answers
  // its own 400s), so it is a 500 and logged, never passed off as the client's mistake.
  return new AppError('INTERNAL', 'Something went wrong on our side. Retry later and quote the requestId.', {
    cause: err,
  });
}

/**
 * Answers `err` with its envelope. Also Fastify's `frameworkErrors` handler (bad URL, too long a
 * segment): those skip the onRequest hooks, hence the request id header here as well.
 */
export function sendError(baseUrl: string, err: Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(err as FastifyError, failedRequest(request));
  if (appError.code === 'SERVICE_UNAVAILABLE') request.log.warn({ err }, 'a backing service is unreachable');
  else if (appError.status >= 500) request.log.error({ err }, 'request failed');
  if (appError.headers) reply.headers(appError.headers);
  reply.header('x-request-id', request.id);
  return reply.code(appError.status).send(envelopeOf(baseUrl, request.id, appError));
}

/**
 * Every error as the envelope; unknown routes and methods are the route-table plugin's.
 *
 * Also the database deadline of requests (store/db-deadline.ts): from its first hook to its
 * answer, a request runs in a scope whose database steps each get DATABASE_DEADLINE_MS, then
 * fail as unreachable, answered here as 503. The scope is entered again once the body is read:
 * the body's stream events do not carry the async context of the hook that came before.
 */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler(async (err, request, reply) =>
      sendError(app.config.publicBaseUrl, err as Error, request, reply),
    );
    // The scope rides on the request (a decorated field, not a WeakMap: no ephemeron for the
    // collector to trace per request).
    app.decorateRequest('databaseScope', null);
    app.addHook('onRequest', (request, _reply, done) => {
      const scope: RequestScope = { open: true };
      request.databaseScope = scope;
      runInRequestScope(scope, done);
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const scope = request.databaseScope;
      // A request without a body gets here still in its scope: entering it again changes nothing.
      if (scope && !inRequestScope(scope)) runInRequestScope(scope, done);
      else done();
    });
    app.addHook('onResponse', (request, _reply, done) => {
      const scope = request.databaseScope;
      if (scope) scope.open = false;
      done();
    });
  },
  { name: 'error-handler', dependencies: ['config'] },
);

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's database-deadline scope (store/db-deadline.ts), from its first hook on. */
    databaseScope: RequestScope | null;
  }
}
