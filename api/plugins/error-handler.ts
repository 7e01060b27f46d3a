import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import { envelopeOf } from '../http/envelope.ts';
import { ajvFindings } from '../http/validation.ts';

/** Turns anything thrown into the spec's envelope; 5xx details go to the log, never the client. */
function toAppError(err: FastifyError | Error): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (fe.validation) {
    const findings = ajvFindings(fe.validation as never);
    const prefix = fe.validationContext === 'headers' ? 'headers.' : '';
    for (const f of findings) f.path = prefix + f.path;
    if (findings.length > 0) return AppError.fromFindings(findings);
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.statusCode === 413) {
    return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB.');
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fe.statusCode === 415) {
    return new AppError('VALIDATION_ERROR', 'Send the body as JSON with Content-Type: application/json.');
  }
  if (fe.statusCode === 400 || err instanceof SyntaxError) {
    const detail = fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'is empty' : 'is not valid JSON';
    return new AppError('VALIDATION_ERROR', `The request body ${detail}.`, { path: '' });
  }
  return new AppError('INTERNAL', 'Something went wrong on our side. Retry later and quote the requestId.', {
    cause: err,
  });
}

export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler(async (err, request, reply) => {
      const appError = toAppError(err as FastifyError);
      if (appError.status >= 500) request.log.error({ err }, 'request failed');
      if (appError.headers) reply.headers(appError.headers);
      return reply.code(appError.status).send(envelopeOf(app.config.publicBaseUrl, request.id, appError));
    });
    app.setNotFoundHandler(async (request, reply) => {
      const err = new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`);
      return reply.code(404).send(envelopeOf(app.config.publicBaseUrl, request.id, err));
    });
  },
  { name: 'error-handler', dependencies: ['config'] },
);
