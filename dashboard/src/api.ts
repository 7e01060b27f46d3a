/**
 * The dashboard's API client. Every request and answer type is derived from the route schemas the
 * server validates and serialises with (api/<resource>/schemas.ts): type-only
 * imports, erased by the bundler, so a change of a schema that the page does not follow fails
 * `tsc -p dashboard`. The key goes in the Authorization header of same-origin requests only;
 * never in a URL, never logged.
 */
import type { Static } from '@sinclair/typebox';
import type { ErrorBodySchema, ErrorEnvelopeSchema } from '../../api/http/schemas.ts';
import type {
  ApiKeySchema,
  CreateKeyBody,
  KeyListSchema,
  NewApiKeySchema,
  RolledKeySchema,
} from '../../api/keys/schemas.ts';
import type {
  CreateRenderBody,
  RenderListSchema,
  RenderResourceSchema,
  RenderStatusSchema,
  TemplateRenderBody,
} from '../../api/renders/schemas.ts';
import type { ScriptRequestBody, ScriptResourceSchema } from '../../api/scripts/schemas.ts';
import type { MovieOptions } from '../../api/scripts/script-to-movie.ts';
import type {
  CreateTemplateBody,
  TemplateListSchema,
  TemplateResourceSchema,
  TemplateWriteResourceSchema,
  UpdateTemplateBody,
  VariableManifestSchema,
  WarningSchema,
} from '../../api/templates/schemas.ts';
import type { UsageSchema } from '../../api/usage/schemas.ts';

export type ApiKey = Static<typeof ApiKeySchema>;
export type NewApiKey = Static<typeof NewApiKeySchema>;
export type KeyMode = ApiKey['mode'];
export type KeyList = Static<typeof KeyListSchema>;
export type RolledKey = Static<typeof RolledKeySchema>;
export type Render = Static<typeof RenderResourceSchema>;
export type RenderStatus = Static<typeof RenderStatusSchema>;
export type RenderList = Static<typeof RenderListSchema>;
export type Template = Static<typeof TemplateResourceSchema>;
export type TemplateWrite = Static<typeof TemplateWriteResourceSchema>;
export type TemplateList = Static<typeof TemplateListSchema>;
export type VariableManifest = Static<typeof VariableManifestSchema>;
export type Warning = Static<typeof WarningSchema>;
export type Usage = Static<typeof UsageSchema>;
export type Script = Static<typeof ScriptResourceSchema>;
export type { MovieOptions };
export type ErrorBody = Static<typeof ErrorBodySchema>;
type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;
type Json = Record<string, unknown>;

/** POST /v1/templates/check (api/templates/check-route.ts). */
export interface TemplateCheck {
  valid: boolean;
  errors: ErrorBody[];
  warnings: Warning[];
  variables: VariableManifest;
}

export type ScriptRequest = ScriptRequestBody;

export interface Voice {
  id: string;
  engine: string;
  language: string;
  description: string;
}

export interface Page {
  page?: number;
  page_size?: number;
}

/** An answer that was not 2xx: the envelope's first finding, and every finding. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly errors: ErrorBody[],
    readonly requestId: string | undefined,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }
}

function query(params: object): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export class Api {
  /**
   * @param key the API key of the session
   * @param onUnauthorized called when the API refuses the key (revoked, rolled elsewhere)
   */
  constructor(
    private key: string,
    private readonly onUnauthorized: () => void,
  ) {}

  /**
   * The session's key, as the live player's token: it sends it, as this client does, in the
   * Authorization header of POST /v1/previews on this origin (the API takes an API key there too).
   */
  previewToken(): string {
    return this.key;
  }

  /** After rolling the session's own key. */
  useKey(key: string): void {
    this.key = key;
  }

  private async call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const res = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${this.key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
      // Same origin, no cookies, no caches holding answers made with the key.
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
    if (res.ok) return (res.status === 204 ? undefined : await res.json()) as T;
    const envelope = (await res.json().catch(() => null)) as ErrorEnvelope | null;
    const error = envelope?.error ?? {
      code: 'INTERNAL' as const,
      message: `HTTP ${res.status} with no error envelope`,
      docsUrl: '',
    };
    if (res.status === 401) this.onUnauthorized();
    throw new ApiError(res.status, error, envelope?.errors ?? [error], envelope?.requestId);
  }

  usage = () => this.call<Usage>('GET', '/v1/usage');

  listKeys = (q: Page & { status?: 'active' | 'revoked' }) => this.call<KeyList>('GET', `/v1/keys${query(q)}`);
  createKey = (body: Static<typeof CreateKeyBody>) => this.call<NewApiKey>('POST', '/v1/keys', body);
  rollKey = (id: string) => this.call<RolledKey>('POST', `/v1/keys/${encodeURIComponent(id)}/roll`);
  revokeKey = (id: string) => this.call<ApiKey>('DELETE', `/v1/keys/${encodeURIComponent(id)}`);

  listRenders = (q: Page & { status?: RenderStatus }) => this.call<RenderList>('GET', `/v1/renders${query(q)}`);
  getRender = (id: string) => this.call<Render>('GET', `/v1/renders/${encodeURIComponent(id)}`);
  renderMovie = (id: string) => this.call<Json>('GET', `/v1/renders/${encodeURIComponent(id)}/movie`);
  cancelRender = (id: string) => this.call<Render>('POST', `/v1/renders/${encodeURIComponent(id)}/cancel`);
  createRender = (body: Static<typeof CreateRenderBody>, idempotencyKey: string) =>
    this.call<Render>('POST', '/v1/renders', body, { 'idempotency-key': idempotencyKey });

  listTemplates = (q: Page) => this.call<TemplateList>('GET', `/v1/templates${query(q)}`);
  getTemplate = (id: string) => this.call<Template>('GET', `/v1/templates/${encodeURIComponent(id)}`);
  createTemplate = (body: Static<typeof CreateTemplateBody>) => this.call<TemplateWrite>('POST', '/v1/templates', body);
  updateTemplate = (id: string, body: Static<typeof UpdateTemplateBody>) =>
    this.call<TemplateWrite>('PUT', `/v1/templates/${encodeURIComponent(id)}`, body);
  deleteTemplate = (id: string) => this.call<void>('DELETE', `/v1/templates/${encodeURIComponent(id)}`);
  checkTemplate = (body: Json, variables?: Json) =>
    this.call<TemplateCheck>('POST', '/v1/templates/check', variables ? { body, variables } : { body });
  renderTemplate = (id: string, body: Static<typeof TemplateRenderBody>, idempotencyKey: string) =>
    this.call<Render>('POST', `/v1/templates/${encodeURIComponent(id)}/renders`, body, {
      'idempotency-key': idempotencyKey,
    });

  createScript = (body: ScriptRequest, idempotencyKey: string) =>
    this.call<Script>('POST', '/v1/scripts', body, { 'idempotency-key': idempotencyKey });
  getScript = (id: string) => this.call<Script>('GET', `/v1/scripts/${encodeURIComponent(id)}`);
  scriptToMovie = (id: string, options: MovieOptions) =>
    this.call<Json>('POST', `/v1/scripts/${encodeURIComponent(id)}/movie`, options);
  voices = () => this.call<{ items: Voice[] }>('GET', '/v1/voices');
}
