import { existsSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import path from 'node:path';
import { type KubeAccess, kubeAccessFromFile, kubeAccessInCluster } from './access.ts';
import { KubeApiError, type KubeRequest, kubeRequest } from './http.ts';
import {
  formatDuration,
  GROUP,
  PLURAL,
  type Render,
  type RenderList,
  type RenderStatus,
  VERSION,
} from './render-resource.ts';

/** Where a pod's service-account token, CA and namespace are mounted. */
const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * Credentials for the apiserver: the file `KUBECONFIG` names when set (its current context), else
 * the pod's service account (KUBERNETES_SERVICE_HOST/PORT and the mounted token and CA). Throws a
 * message naming the variable when neither is there.
 */
export function loadKubeConfig(
  env: NodeJS.ProcessEnv = process.env,
  serviceAccountDir: string = SERVICE_ACCOUNT_DIR,
): KubeAccess {
  const file = env.KUBECONFIG;
  if (file) {
    if (file.includes(path.delimiter)) {
      throw new Error(`KUBECONFIG=${file}: give one kubeconfig file, not a list`);
    }
    if (!existsSync(file)) throw new Error(`KUBECONFIG=${file}: no such file`);
    return kubeAccessFromFile(file);
  }
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  const tokenFile = path.join(serviceAccountDir, 'token');
  if (host && existsSync(tokenFile)) {
    return kubeAccessInCluster(`https://${isIPv6(host) ? `[${host}]` : host}:${port}`, serviceAccountDir);
  }
  throw new Error(
    'No Kubernetes credentials: set KUBECONFIG to a kubeconfig file, or run in a pod with a service account ' +
      `(KUBERNETES_SERVICE_HOST is ${host ? 'set' : 'not set'}, ${tokenFile} ${host ? 'is missing' : 'is not read'})`,
  );
}

/** A status patch: a field set to null is removed (JSON merge patch, RFC 7386). */
export type RenderStatusPatch = { [K in keyof RenderStatus]?: RenderStatus[K] | null };

export interface PatchOptions {
  /** Refuse the patch with 409 Conflict when the Render changed since this resourceVersion. */
  resourceVersion?: string;
  /** Recorded in managedFields. */
  fieldManager?: string;
}

/** What the apiserver said about a failed request: HTTP code and the Status object's reason. */
export interface KubeStatus {
  code: number;
  reason: string | undefined;
  message: string;
}

/**
 * An apiserver refusal with its Status parsed. client-node's ApiException keeps the body as text and
 * puts response headers in its message; this one says what was refused and why.
 */
export class KubeError extends Error {
  readonly code: number;
  readonly reason: string | undefined;

  constructor(operation: string, status: KubeStatus, options?: ErrorOptions) {
    super(`${operation}: ${status.code} ${status.reason ?? 'error'}: ${status.message}`, options);
    this.name = 'KubeError';
    this.code = status.code;
    this.reason = status.reason;
  }
}

/**
 * client-node's ApiException, recognised by shape: importing the package to use instanceof would
 * load all of it (about 70 MB) into processes that never make a request with it.
 */
function isApiException(err: unknown): err is Error & { code: number; body: unknown } {
  return (
    err instanceof Error &&
    err.constructor.name === 'ApiException' &&
    typeof (err as { code?: unknown }).code === 'number'
  );
}

/**
 * The parsed Status of a KubeError, a KubeApiError (lib/kube/http.ts) or a client-node
 * ApiException; undefined for anything else (a refused connection, a timeout).
 */
export function kubeStatus(err: unknown): KubeStatus | undefined {
  if (err instanceof KubeError) return { code: err.code, reason: err.reason, message: err.message };
  if (err instanceof KubeApiError) return { code: err.statusCode, reason: err.reason, message: err.message };
  if (!isApiException(err)) return undefined;
  const code = Number(err.code);
  let body: unknown = err.body;
  if (typeof body === 'string') {
    const text = body;
    try {
      body = JSON.parse(text);
    } catch {
      return { code, reason: undefined, message: text || `HTTP ${code}` };
    }
  }
  const status = (body ?? {}) as { reason?: unknown; message?: unknown };
  return {
    code,
    reason: typeof status.reason === 'string' && status.reason ? status.reason : undefined,
    message: typeof status.message === 'string' ? status.message : `HTTP ${code}`,
  };
}

/** 404: no such Render (or the CRD is not installed). */
export function isNotFound(err: unknown): boolean {
  return kubeStatus(err)?.code === 404;
}

/** 409 AlreadyExists: a create found an object of that name. */
export function isAlreadyExists(err: unknown): boolean {
  const s = kubeStatus(err);
  return s?.code === 409 && s.reason === 'AlreadyExists';
}

/** 409 Conflict: the object changed since the resourceVersion the write was based on. */
export function isConflict(err: unknown): boolean {
  const s = kubeStatus(err);
  return s?.code === 409 && s.reason !== 'AlreadyExists';
}

/** 410 Gone: a list or watch asked for a resourceVersion etcd has compacted away; relist. */
export function isGone(err: unknown): boolean {
  return kubeStatus(err)?.code === 410;
}

/** 422 Invalid: the object failed the CRD's schema or a validation rule (spec is immutable). */
export function isInvalid(err: unknown): boolean {
  return kubeStatus(err)?.code === 422;
}

/**
 * Renders of one namespace, typed with the schemas of render-resource.ts, over the same bounded
 * transport as the operator's informers and leases (lib/kube/http.ts): every call ends within
 * `timeoutMs`, so an apiserver that hangs can never hold up an API request or a worker for ever.
 * Failures are KubeErrors (see isNotFound, isConflict, ...).
 */
export class RendersClient {
  private readonly path: string;

  constructor(
    private readonly kubeConfig: KubeAccess,
    readonly namespace: string,
    private readonly timeoutMs = 30_000,
  ) {
    this.path = `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${PLURAL}`;
  }

  private async call<T>(operation: string, req: KubeRequest): Promise<T> {
    try {
      return await kubeRequest<T>(this.kubeConfig, { timeoutMs: this.timeoutMs, ...req });
    } catch (err) {
      const status = kubeStatus(err);
      if (!status) throw err;
      throw new KubeError(`${operation} in namespace ${this.namespace}`, status, { cause: err });
    }
  }

  /** Creates the Render; 409 AlreadyExists when one of that name exists (isAlreadyExists). */
  create(render: Render): Promise<Render> {
    return this.call(`create Render ${render.metadata.name}`, { method: 'POST', path: this.path, body: render });
  }

  get(name: string): Promise<Render> {
    return this.call(`get Render ${name}`, { path: `${this.path}/${name}` });
  }

  /** Deletes the Render; its Job goes with it (owner reference, background propagation). */
  async delete(name: string): Promise<void> {
    await this.call(`delete Render ${name}`, {
      method: 'DELETE',
      path: `${this.path}/${name}`,
      query: { propagationPolicy: 'Background' },
    });
  }

  /** Every Render of the namespace matching the label selector, following continue tokens. */
  async list(labelSelector?: string): Promise<Render[]> {
    const items: Render[] = [];
    let token: string | undefined;
    do {
      const page: RenderList = await this.call(`list Renders${labelSelector ? ` (${labelSelector})` : ''}`, {
        path: this.path,
        query: { limit: 500, labelSelector, continue: token },
      });
      items.push(...page.items);
      token = page.metadata.continue || undefined;
    } while (token);
    return items;
  }

  /**
   * Merges `status` into the Render's status subresource (JSON merge patch): fields given replace
   * theirs, null removes one, and a list (conditions) is replaced whole. The spec cannot change here.
   */
  patchStatus(name: string, status: RenderStatusPatch, options: PatchOptions = {}): Promise<Render> {
    // Every writer's durationSec comes with its printable form (the DURATION column).
    const d = status.durationSec;
    const withDuration = d === undefined ? status : { ...status, duration: d === null ? null : formatDuration(d) };
    const body = {
      ...(options.resourceVersion ? { metadata: { resourceVersion: options.resourceVersion } } : {}),
      status: withDuration,
    };
    return this.call(`patch status of Render ${name}`, {
      method: 'PATCH',
      path: `${this.path}/${name}/status`,
      contentType: 'application/merge-patch+json',
      query: { fieldManager: options.fieldManager },
      body,
    });
  }
}
