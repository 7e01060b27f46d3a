import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { envelopeOf } from './envelope.ts';

/** How long a refused connection may stay half-open for the client to read the answer. */
const CLOSE_GRACE_MS = 5_000;

function appErrorOf(code: string | undefined): AppError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new AppError('HEADERS_TOO_LARGE', 'The request line and headers are larger than the server accepts.');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new AppError('REQUEST_TIMEOUT', 'The request did not arrive in time.');
  }
  return new AppError('VALIDATION_ERROR', 'The request is not valid HTTP/1.1.', { path: '' });
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (oversized headers, a broken
 * request line, a timeout) never reaches Fastify, so the envelope and a fresh request id are
 * written to the socket here, as a whole HTTP response, and the connection is closed.
 */
export function clientErrorHandler(baseUrl: string) {
  return function onClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
    // A reset socket has nobody to answer; a response already under way must not get a second one.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy(err);
      return;
    }
    const appError = appErrorOf(err.code);
    const requestId = newId('req');
    this.log.debug({ err, requestId }, 'client error');
    const body = JSON.stringify(envelopeOf(baseUrl, requestId, appError));
    // end() half-closes, so the client reads the answer even with unread bytes of its request
    // still on the way (closing outright could reset the connection first); a client that never
    // closes its side is cut off shortly after.
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    socket.end(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n' +
        `\r\n${body}`,
    );
  };
}
