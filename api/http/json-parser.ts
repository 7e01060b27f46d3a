import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.ts';

/** Path of the first string (key or value) holding U+0000, which PostgreSQL text and jsonb cannot store. */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], `${path}[${i}]`);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = path === '' ? k : `${path}.${k}`;
      if (k.includes('\u0000')) return p;
      const hit = findNul(v, p);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/**
 * JSON bodies parsed as usual, but a NUL character anywhere is a VALIDATION_ERROR at its path
 * instead of a database error later. The scan runs only when the raw text contains `\u0000`.
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const raw = text as string;
    if (raw === '') {
      done(new AppError('VALIDATION_ERROR', 'The request body is empty; send a JSON object.', { path: '' }), undefined);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      done(new AppError('VALIDATION_ERROR', 'The request body is not valid JSON.', { path: '' }), undefined);
      return;
    }
    if (raw.includes('\\u0000')) {
      const at = findNul(body);
      if (at !== undefined) {
        done(
          new AppError('VALIDATION_ERROR', `${at || 'The body'} must not contain the NUL character (\\u0000).`, {
            path: at,
          }),
          undefined,
        );
        return;
      }
    }
    done(null, body);
  });
}
