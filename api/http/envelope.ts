import { type AppError, type ErrorBody, errorBody } from '../../lib/errors.ts';

/** The error envelope (docs/api.md, Errors). */
export interface ErrorEnvelope {
  error: ErrorBody;
  errors?: ErrorBody[];
  requestId: string;
}

/** Shapes an AppError; `errors` is present when the error carries validation findings. */
export function envelopeOf(baseUrl: string, requestId: string, err: AppError): ErrorEnvelope {
  const envelope: ErrorEnvelope = { error: errorBody(baseUrl, err.code, err.message, err.path), requestId };
  if (err.findings && err.findings.length > 0) {
    envelope.errors = err.findings.map((f) => errorBody(baseUrl, f.code, f.message, f.path));
    // error equals errors[0] (docs/api.md, Errors).
    envelope.error = envelope.errors[0] as ErrorBody;
  }
  return envelope;
}
