/**
 * The Framewright API client for TypeScript: openapi-fetch over the types that openapi-typescript
 * generates from the API's OpenAPI document (./schema.ts, `make clients`; never edited by hand).
 * Every call is typed by its path and method: parameters, body, the success body as `data` and
 * the error envelope as `error`.
 *
 *   const fw = createFramewrightClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.FRAMEWRIGHT_API_KEY });
 *   const { data, error } = await fw.POST('/v1/renders', { body: { movie } });
 */
import createClient, { type Client, type ClientOptions, mergeHeaders } from 'openapi-fetch';
import type { components, operations, paths } from './schema.ts';

export type { components, operations, paths };

/** The client: `GET`, `POST`, `PUT`, `DELETE` by path (openapi-fetch's `Client` over the API's paths). */
export type FramewrightClient = Client<paths>;

/** A movie document (docs/movie.md), the body of every render. */
export type MovieDocument = components['schemas']['MovieV1'];
/** The error envelope of every non-2xx answer (docs/api.md, Errors). */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
/** A render as the API shows it (docs/api.md, The render resource). */
export type Render = operations['getRender']['responses'][200]['content']['application/json'];
/** One page of `GET /v1/renders` (docs/api.md, Pagination). */
export type RenderPage = operations['listRenders']['responses'][200]['content']['application/json'];

export interface FramewrightClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's base URL, e.g. `http://localhost:8080` (its PUBLIC_BASE_URL), without `/v1`. */
  baseUrl: string;
  /** An API key (`fw_live_...` or `fw_test_...`), sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
}

/** A client for one service and key. Calls without a key reach only the public endpoints. */
export function createFramewrightClient({
  baseUrl,
  apiKey,
  headers,
  ...options
}: FramewrightClientOptions): FramewrightClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: mergeHeaders(apiKey ? { authorization: `Bearer ${apiKey}` } : undefined, headers),
  });
}

/** A non-2xx answer, thrown by the helpers below: the envelope's code, message, path and request id. */
export class FramewrightApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope,
  ) {
    super(`${status} ${envelope.error.code}: ${envelope.error.message}`);
    this.name = 'FramewrightApiError';
  }
}

/**
 * Polls `GET /v1/renders/{id}` every `intervalMs` until the render is `done` or `failed`, and
 * returns it (a failed render carries its `error`). Throws FramewrightApiError on an error
 * answer, and the signal's reason once it is aborted.
 */
export async function waitForRender(
  client: FramewrightClient,
  id: string,
  { intervalMs = 1000, signal }: { intervalMs?: number; signal?: AbortSignal } = {},
): Promise<Render> {
  for (;;) {
    signal?.throwIfAborted();
    const { data, error, response } = await client.GET('/v1/renders/{id}', {
      params: { path: { id } },
      ...(signal ? { signal } : {}),
    });
    if (error) throw new FramewrightApiError(response.status, error);
    if (data.status === 'done' || data.status === 'failed') return data;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, intervalMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
