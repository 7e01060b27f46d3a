import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type Finding } from '../../lib/errors.ts';

/**
 * Deepest nesting of arrays and objects a JSON body may have. No movie or template comes near it;
 * it keeps every later walk over the body (validation, hashing, serialisation) far from the stack
 * limit, however it is written.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * What a body must not hold: a string PostgreSQL text and jsonb cannot store (U+0000, a lone
 * UTF-16 surrogate), or a `__proto__` key, which `Object.assign` or a merge would turn into a
 * prototype change (Fastify's default parser refused these too; this parser replaces it).
 */
export type Unstorable = 'nul' | 'surrogate' | 'proto';

interface ScanFor {
  nul: boolean;
  surrogate: boolean;
  proto: boolean;
}

// With the u flag a well-formed pair reads as one code point, so only a lone half is \p{Cs}.
const LONE_SURROGATE = /\p{Cs}/u;
// A lone surrogate can only come from a \uD800-\uDFFF escape (UTF-8 cannot encode one).
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function problemOf(s: string, check: ScanFor): Unstorable | undefined {
  if (check.nul && s.includes('\u0000')) return 'nul';
  if (check.surrogate && LONE_SURROGATE.test(s)) return 'surrogate';
  return undefined;
}

/**
 * Path and kind of the first string (key or value, in document order) holding a character
 * PostgreSQL cannot store. Iterative with an explicit stack: the body's depth is the client's.
 */
export function findUnstorable(
  value: unknown,
  check: ScanFor = { nul: true, surrogate: true, proto: true },
): { path: string; problem: Unstorable } | undefined {
  // `key` is checked when its entry comes off the stack, so keys and values go in document order.
  const stack: { value: unknown; path: string; key?: string }[] = [{ value, path: '' }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { value: v, path, key } = top;
    const problem =
      (key === undefined ? undefined : check.proto && key === '__proto__' ? 'proto' : problemOf(key, check)) ??
      (typeof v === 'string' ? problemOf(v, check) : undefined);
    if (problem) return { path, problem };
    // Children are pushed last-first, so the first is looked at first.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}[${i}]` });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        stack.push({ value: child, path: path === '' ? k : `${path}.${k}`, key: k });
      }
    }
  }
  return undefined;
}

/** Whether valid JSON `text` nests arrays/objects deeper than `limit` (one pass, strings skipped). */
function nestsDeeperThan(text: string, limit: number): boolean {
  // Each level costs at least two characters.
  if (text.length <= 2 * limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: one preceded by an even run of backslashes.
      let end = text.indexOf('"', i + 1);
      for (;;) {
        if (end === -1) return false; // not JSON after all: JSON.parse has the say
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

const invalid = (message: string, path = '') => new AppError('VALIDATION_ERROR', message, { path });

function unstorableFinding(hit: { path: string; problem: Unstorable }): Finding {
  const where = hit.path || 'The request body';
  const message =
    hit.problem === 'nul'
      ? `${where} must not contain the NUL character (\\u0000).`
      : hit.problem === 'surrogate'
        ? `${where} must not contain a lone surrogate (an unpaired \\uD800-\\uDFFF escape); send valid Unicode.`
        : `${where}: a key named __proto__ is not allowed.`;
  return { code: 'VALIDATION_ERROR', message, path: hit.path };
}

/**
 * The body as a JSON value, and the finding of an unstorable string inside its movie document (the
 * object at `body[document]`), at a path relative to that document as every movie finding is
 * (`scenes[0].id`, docs/api.md). Anything else wrong is the VALIDATION_ERROR thrown, at a path
 * relative to the request (`variables.name`, `name`).
 */
function readJsonBody(bytes: Buffer, document?: string): { body: unknown; documentFinding?: Finding } {
  // Invalid UTF-8 would otherwise decode to U+FFFD and be stored as if the client had sent it.
  if (!isUtf8(bytes)) throw invalid('The request body is not valid UTF-8.');
  // A UTF-8 byte order mark is allowed (RFC 8259 section 8.1) and is not part of the text.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const raw = bytes.toString('utf8', bom);
  if (raw === '') throw invalid('The request body is empty; send a JSON object.');
  let body: unknown;
  try {
    // V8's JSON.parse is iterative: any depth parses or fails as a SyntaxError.
    body = JSON.parse(raw);
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw invalid(`The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  // The scan runs only when the raw text can hold one of these: a NUL or a lone surrogate needs
  // an escape, and a `__proto__` key is either written out or spelled with an escape.
  const check = {
    nul: raw.includes('\\u0000'),
    surrogate: SURROGATE_ESCAPE.test(raw),
    proto: raw.includes('__proto__') || raw.includes('\\u'),
  };
  if (check.nul || check.surrogate || check.proto) {
    // The movie document first, on its own: its paths are the document's.
    const movie = document === undefined ? undefined : documentOf(body, document);
    const inDocument = movie === undefined ? undefined : findUnstorable(movie, check);
    if (inDocument) return { body, documentFinding: unstorableFinding(inDocument) };
    const hit = findUnstorable(body, check);
    if (hit) {
      const finding = unstorableFinding(hit);
      throw invalid(finding.message, finding.path);
    }
  }
  return { body };
}

/** `body[field]` when it is a JSON object (a movie document); else nothing. */
function documentOf(body: unknown, field: string): object | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, field)) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/**
 * The body as a JSON value, or the VALIDATION_ERROR that refuses it; with `document`, an unstorable
 * string inside the movie document at `body[document]` is refused at its document-relative path.
 */
export function parseJsonBody(bytes: Buffer, document?: string): unknown {
  const { body, documentFinding } = readJsonBody(bytes, document);
  if (documentFinding) throw AppError.fromFindings([documentFinding]);
  return body;
}

const answered = new WeakMap<FastifyRequest, Finding>();

/**
 * The document finding of the JSON parser on a route that answers it itself
 * (`config.answersDocumentFindings`, the template check's dry run); undefined when none.
 */
export function documentFindingOf(request: FastifyRequest): Finding | undefined {
  return answered.get(request);
}

/**
 * JSON bodies, read as bytes: strict UTF-8, bounded depth, and a NUL or lone surrogate anywhere
 * is a VALIDATION_ERROR at its path instead of a database error later. A route's
 * `config.movieDocument` names the body field holding a movie document, whose findings have
 * document-relative paths like the movie library's.
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
    const config = request.routeOptions.config;
    let read: ReturnType<typeof readJsonBody>;
    try {
      read = readJsonBody(bytes as Buffer, config?.movieDocument);
    } catch (err) {
      done(err as Error, undefined);
      return;
    }
    if (read.documentFinding) {
      if (!config?.answersDocumentFindings) {
        done(AppError.fromFindings([read.documentFinding]), undefined);
        return;
      }
      answered.set(request, read.documentFinding);
    }
    done(null, read.body);
  });
}
