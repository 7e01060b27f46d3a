/**
 * The one catalogue of error codes. Every error the product reports, over HTTP, in a failed
 * render, or as a CLI exit, carries one of these codes. Status, exit code and doc text live here
 * and nowhere else; `docsUrl` pages are served from this table.
 */
export const ERROR_CATALOG = {
  VALIDATION_ERROR: {
    status: 400,
    exit: 10,
    retry: 'final',
    title: 'Validation error',
    doc: 'The request or the movie document failed validation: a value is out of range or breaks a cross-field rule. `error.path` names the offending field; `errors` lists every finding.',
  },
  SCHEMA_INVALID: {
    status: 400,
    exit: 11,
    retry: 'final',
    title: 'Document does not satisfy the schema',
    doc: 'The movie document has a structural problem: a wrong type, a missing required field, an unknown key or a value outside an enumeration. Fix the field at `error.path`.',
  },
  UNSUPPORTED_SCHEMA_VERSION: {
    status: 400,
    exit: 12,
    retry: 'final',
    title: 'Unsupported schema version',
    doc: 'The `schema` tag of the movie document names no known version. Use `v1`.',
  },
  ELEMENT_ID_DUPLICATE: {
    status: 400,
    exit: 13,
    retry: 'final',
    title: 'Duplicate element id',
    doc: 'Two elements share an id. Element ids must be unique across the whole document.',
  },
  SCENE_ID_DUPLICATE: {
    status: 400,
    exit: 14,
    retry: 'final',
    title: 'Duplicate scene id',
    doc: 'Two scenes share an id. Scene ids must be unique.',
  },
  SCENE_EMPTY: {
    status: 400,
    exit: 15,
    retry: 'final',
    title: 'Scene without elements',
    doc: 'A scene has an empty `elements` array. Add at least one element or remove the scene.',
  },
  VARIABLE_MISSING: {
    status: 400,
    exit: 16,
    retry: 'final',
    title: 'Variable has no value',
    doc: 'A referenced variable has neither a value in the request nor a declared default. `error.path` is its first reference.',
  },
  VARIABLE_TYPE_MISMATCH: {
    status: 400,
    exit: 17,
    retry: 'final',
    title: 'Variable value has the wrong type',
    doc: 'A variable value cannot be converted losslessly to its declared type. `error.path` is its first reference.',
  },
  VARIABLE_UNDECLARED: {
    status: 400,
    exit: 18,
    retry: 'final',
    title: 'Undeclared variable',
    doc: 'A `{{name}}` placeholder references a variable that the document does not declare in `variables`. Declare it, or escape a literal with `{{{{name}}}}`.',
  },
  UNAUTHORIZED: {
    status: 401,
    exit: 20,
    retry: 'final',
    title: 'Unauthorized',
    doc: 'The request carries no valid API key. Send `Authorization: Bearer <key>` with an active key.',
  },
  INSUFFICIENT_CREDITS: {
    status: 402,
    exit: 21,
    retry: 'final',
    title: 'Insufficient credits',
    doc: 'The available credit balance does not cover the estimated cost of the request. Top up credits or make a draft.',
  },
  WEBHOOKS_NOT_ALLOWED: {
    status: 403,
    exit: 22,
    retry: 'final',
    title: 'Webhooks not allowed on this plan',
    doc: 'The trial plan cannot use `webhook_url`. Poll `GET /v1/renders/{id}` or upgrade the plan.',
  },
  NOT_FOUND: {
    status: 404,
    exit: 23,
    retry: 'final',
    title: 'Not found',
    doc: 'No such resource exists for this API key.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    exit: 27,
    retry: 'final',
    title: 'Method not allowed',
    doc: 'The path exists but does not support this HTTP method. The `Allow` response header lists the methods it does support.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    exit: 28,
    retry: 'final',
    title: 'Request timeout',
    doc: 'The request headers or body did not arrive in time, so the connection was closed. Send the whole request promptly and retry.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    exit: 24,
    retry: 'final',
    title: 'Idempotency key reused',
    doc: 'The Idempotency-Key was used in the last 24 hours with a different request body. Use a new key for a new request.',
  },
  OUTPUT_EXPIRED: {
    status: 410,
    exit: 25,
    retry: 'final',
    title: 'Output expired',
    doc: 'The render output passed its retention period (`expiresAt`) and was deleted.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    exit: 26,
    retry: 'final',
    title: 'Payload too large',
    doc: 'The request body exceeds the size limit (1 MiB for JSON bodies, 100 MiB for asset uploads).',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    exit: 29,
    retry: 'final',
    title: 'Request headers too large',
    doc: 'The request line and headers together exceed the server limit (16 KiB by default). Send fewer or shorter headers.',
  },
  ASSET_UNREACHABLE: {
    status: 422,
    exit: 30,
    retry: 'final',
    title: 'Asset unreachable',
    doc: 'An asset URL could not be fetched: it timed out, answered with an error, redirected too often, exceeded 50 MB, or points at a private address. `error.path` names the element.',
  },
  ASSET_INVALID: {
    status: 422,
    exit: 31,
    retry: 'final',
    title: 'Asset invalid',
    doc: 'An asset was fetched but is not a supported, decodable media file. `error.path` names the element.',
  },
  PREVIEW_FAILED: {
    status: 422,
    exit: 33,
    retry: 'final',
    title: 'Preview could not be prepared',
    doc: 'The document could not be prepared for the live preview (`POST /v1/previews`): its preparation failed, or took longer than 120 s; the message says which. Nothing was charged. A render of the same document reports the full error; a shorter or simpler document previews.',
  },
  RATE_LIMITED: {
    status: 429,
    exit: 40,
    retry: 'final',
    title: 'Rate limited',
    doc: 'Too many requests for this API key in the sliding window. Back off until `X-RateLimit-Reset` (or `Retry-After` seconds).',
  },
  CONCURRENCY_LIMIT: {
    status: 429,
    exit: 41,
    retry: 'final',
    title: 'Concurrency limit reached',
    doc: 'The plan allows this many renders queued or in progress at once. Wait for one to finish (`Retry-After`) and retry.',
  },
  INTERNAL: {
    status: 500,
    exit: 50,
    retry: 'attempt',
    title: 'Internal error',
    doc: 'A platform fault. Retry later; quote `requestId` when reporting it.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    exit: 54,
    retry: 'attempt',
    title: 'Service temporarily unavailable',
    doc: 'The service cannot reach its database (a restart or failover) or its object store right now. Retry after `Retry-After` seconds; retry a POST with the same `Idempotency-Key`, so a request that did take effect is not made twice.',
  },
  STORAGE_UNAVAILABLE: {
    status: 503,
    exit: 56,
    retry: 'final',
    title: 'Object storage unavailable',
    doc: 'The platform could not store a file (a render output, a segment) because its object store stayed unreachable for the whole retry window (`S3_RETRY_SEC`, 2 minutes by default). A platform fault: nothing was charged and the reserved credits were released. Create the render again.',
  },
  INSUFFICIENT_STORAGE: {
    status: 507,
    exit: 57,
    retry: 'final',
    title: 'Platform storage full',
    doc: "The platform's own disk is full or over its quota, so it could not store an upload or a render's working files. A platform fault, not the request's: nothing was stored or charged, and a failed render's reserved credits were released. Retry later.",
  },
  RENDER_FAILED: {
    status: 500,
    exit: 51,
    retry: 'final',
    title: 'Render failed',
    doc: 'The renderer or encoder failed. The message carries the cause; retrying the render may help.',
  },
  GPU_DRAWING_UNAVAILABLE: {
    status: 500,
    exit: 59,
    retry: 'final',
    title: 'No GPU to draw on',
    doc: "A platform fault: the worker was given a GPU but found only a software renderer (Mesa's llvmpipe), so it did not draw. The message names what the container lacks: the device, the driver's `graphics` capability, its EGL library (`libEGL_nvidia.so.0`) or the EGL vendor file. Nothing was charged and the reserved credits were released. A platform team fixes the node or sets `worker.allowSoftwareDrawing`; create the render again.",
  },
  RENDER_CANCELLED: {
    status: 409,
    exit: 55,
    retry: 'final',
    title: 'Render cancelled',
    doc: 'The render was stopped before it finished: it was cancelled (`POST /v1/renders/{id}/cancel`, or Cancel in the dashboard), or its `Render` resource was deleted in the cluster (`kubectl delete render`). Nothing was charged and the reserved credits were released. Create the render again to run it.',
  },
  RENDER_NOT_CANCELLABLE: {
    status: 409,
    exit: 32,
    retry: 'final',
    title: 'Render already finished',
    doc: 'Only a render that is `queued`, `preparing` or `rendering` can be cancelled; this one has finished (`done`, or `failed` for another reason) and stays as it is. Cancelling a render that is already cancelled is not an error: it answers the render unchanged.',
  },
  TTS_FAILED: {
    status: 502,
    exit: 52,
    retry: 'final',
    title: 'Speech synthesis failed',
    doc: 'The speech engine could not synthesise a voice element. `error.path` names the element.',
  },
  TRANSCRIPTION_FAILED: {
    status: 502,
    exit: 58,
    retry: 'final',
    title: 'Transcription failed',
    doc: 'The transcription endpoint could not transcribe the sound a subtitles element captions (`from`): unreachable, refused, or answered without word timestamps. `error.path` names the subtitles element.',
  },
  LLM_FAILED: {
    status: 502,
    exit: 53,
    retry: 'final',
    title: 'Script generation failed',
    doc: 'The language model could not produce a script that satisfies every constraint, or was unreachable. Nothing was charged.',
  },
  VARIABLE_UNUSED: {
    status: 200,
    exit: 0,
    retry: 'final',
    title: 'Variable declared but not used',
    doc: 'A warning, never an error: a template declares a variable that no `{{name}}` placeholder references. `path` is `variables.<name>`.',
  },
  TEXT_GLYPH_MISSING: {
    status: 200,
    exit: 0,
    retry: 'final',
    title: 'A character no font draws',
    doc: "A warning, never an error: a text (or a voice's words, when a subtitles element shows them) holds a character that neither its font nor the bundled fallback fonts draw. The render draws it as U+FFFD, the replacement character. `path` is the text field; give a font (by URL) that has the character.",
  },
} as const satisfies Record<string, CatalogEntry>;

/**
 * One code of the catalogue. `retry` is the one retry table: what every runner does when a
 * render's worker fails with the code (lib/worker-exit.ts for a Job's pods, decideOutcome in
 * store/lifecycle/decisions.ts for the in-process executor; test/faults/retry-table.test.ts walks
 * the catalogue against both):
 * - 'attempt': a fault of the platform, not of the render (the worker's crash, a service it needs
 *   away): the attempt runs again while attempts are left (the Job's backoffLimit, or
 *   RENDER_MAX_ATTEMPTS on one machine), then the render fails with the code;
 * - 'final': the render's own (its document, an asset, the renderer's verdict) or a fault already
 *   retried inside the worker (the object store for S3_RETRY_SEC): the render ends at once.
 */
interface CatalogEntry {
  status: number;
  exit: number;
  retry: 'attempt' | 'final';
  title: string;
  doc: string;
}

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

/** Whether a worker's failure with `code` is run again while attempts are left (the catalogue's `retry`). */
export function retriesAttempt(code: ErrorCode): boolean {
  return ERROR_CATALOG[code].retry === 'attempt';
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOG, value);
}

/** One problem with one field: the unit of every validation report. */
export interface Finding {
  code: ErrorCode;
  message: string;
  /** Exact JSON path in the spec's form, e.g. `scenes[2].elements[0].src`. Empty for the root. */
  path: string;
}

/** The error shape of spec section 7, as it appears in `error` and in a failed render. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  path?: string;
  docsUrl: string;
}

/**
 * A typed, catalogued error. Code throws these; the API's error handler and the CLI turn them
 * into the envelope or an exit code. `findings` carries all validation findings (first = this).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly path: string | undefined;
  readonly findings: Finding[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      path?: string;
      findings?: Finding[];
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.path = options.path;
    this.findings = options.findings;
    this.headers = options.headers;
  }

  /** Builds the error from validation findings; the first finding leads. */
  static fromFindings(findings: Finding[]): AppError {
    const first = findings[0];
    if (!first) throw new TypeError('fromFindings needs at least one finding');
    return new AppError(first.code, first.message, { path: first.path, findings });
  }

  toFinding(): Finding {
    return { code: this.code, message: this.message, path: this.path ?? '' };
  }
}

/** The docs page for a code, under the service's own base URL. */
function docsUrl(baseUrl: string, code: ErrorCode): string {
  return `${baseUrl.replace(/\/+$/, '')}/docs/errors/${code}`;
}

/** The spec's error shape for a code, with `path` only where it applies. */
export function errorBody(baseUrl: string, code: ErrorCode, message: string, path?: string): ErrorBody {
  const body: ErrorBody = { code, message, docsUrl: docsUrl(baseUrl, code) };
  if (path !== undefined && path !== '') body.path = path;
  return body;
}
