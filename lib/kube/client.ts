import { existsSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import path from 'node:path';
import {
  ApiException,
  type ConfigurationOptions,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { GROUP, PLURAL, type Render, type RenderList, type RenderStatus, VERSION } from './render-resource.ts';

/** Where a pod's service-account token, CA and namespace are mounted. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * Credentials for the apiserver: the file `KUBECONFIG` names when set (its current context), else
 * the pod's service account (KUBERNETES_SERVICE_HOST/PORT and the mounted token and CA). Throws a
 * message naming the variable when neither is there.
 */
export function loadKubeConfig(
  env: NodeJS.ProcessEnv = process.env,
  serviceAccountDir: string = SERVICE_ACCOUNT_DIR,
): KubeConfig {
  const kc = new KubeConfig();
  const file = env.KUBECONFIG;
  if (file) {
    if (file.includes(path.delimiter)) {
      throw new Error(`KUBECONFIG=${file}: give one kubeconfig file, not a list`);
    }
    if (!existsSync(file)) throw new Error(`KUBECONFIG=${file}: no such file`);
    kc.loadFromFile(file);
    if (!kc.getCurrentCluster()) throw new Error(`KUBECONFIG=${file}: the file has no current context with a cluster`);
    return kc;
  }
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  const tokenFile = path.join(serviceAccountDir, 'token');
  if (host && existsSync(tokenFile)) {
    // loadFromCluster() reads process.env; this reads the env it was given, as the rest of config does.
    kc.loadFromClusterAndUser(
      {
        name: 'in-cluster',
        server: `https://${isIPv6(host) ? `[${host}]` : host}:${port}`,
        caFile: path.join(serviceAccountDir, 'ca.crt'),
        skipTLSVerify: false,
      },
      { name: 'service-account', authProvider: { name: 'tokenFile', config: { tokenFile } } },
    );
    return kc;
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

/** The parsed Status of a KubeError or client-node ApiException; undefined for anything else. */
export function kubeStatus(err: unknown): KubeStatus | undefined {
  if (err instanceof KubeError) return { code: err.code, reason: err.reason, message: err.message };
  if (!(err instanceof ApiException)) return undefined;
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

// client-node 1.4.0 sends the first content type its generated code lists for a patch,
// application/json-patch+json; a merge patch has to set the header itself.
const MERGE_PATCH: ConfigurationOptions = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * Renders of one namespace through client-node's CustomObjectsApi, typed with the schemas of
 * render-resource.ts. Failures are KubeErrors (see isNotFound, isConflict, ...).
 */
export class RendersClient {
  private readonly api: CustomObjectsApi;

  constructor(
    kubeConfig: KubeConfig,
    readonly namespace: string,
  ) {
    this.api = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  private get base() {
    return { group: GROUP, version: VERSION, namespace: this.namespace, plural: PLURAL };
  }

  private async call<T>(operation: string, request: () => Promise<unknown>): Promise<T> {
    try {
      return (await request()) as T;
    } catch (err) {
      const status = kubeStatus(err);
      if (!status) throw err;
      throw new KubeError(`${operation} in namespace ${this.namespace}`, status, { cause: err });
    }
  }

  /** Creates the Render; 409 AlreadyExists when one of that name exists (isAlreadyExists). */
  create(render: Render): Promise<Render> {
    return this.call(`create Render ${render.metadata.name}`, () =>
      this.api.createNamespacedCustomObject({ ...this.base, body: render }),
    );
  }

  get(name: string): Promise<Render> {
    return this.call(`get Render ${name}`, () => this.api.getNamespacedCustomObject({ ...this.base, name }));
  }

  /** Deletes the Render; its Job goes with it (owner reference, background propagation). */
  async delete(name: string): Promise<void> {
    await this.call(`delete Render ${name}`, () =>
      this.api.deleteNamespacedCustomObject({ ...this.base, name, propagationPolicy: 'Background' }),
    );
  }

  /** Every Render of the namespace matching the label selector, following continue tokens. */
  async list(labelSelector?: string): Promise<Render[]> {
    const items: Render[] = [];
    let token: string | undefined;
    do {
      const page: RenderList = await this.call(`list Renders${labelSelector ? ` (${labelSelector})` : ''}`, () =>
        this.api.listNamespacedCustomObject({
          ...this.base,
          limit: 500,
          ...(labelSelector ? { labelSelector } : {}),
          ...(token ? { _continue: token } : {}),
        }),
      );
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
    const body = {
      ...(options.resourceVersion ? { metadata: { resourceVersion: options.resourceVersion } } : {}),
      status,
    };
    return this.call(`patch status of Render ${name}`, () =>
      this.api.patchNamespacedCustomObjectStatus(
        { ...this.base, name, body, ...(options.fieldManager ? { fieldManager: options.fieldManager } : {}) },
        MERGE_PATCH,
      ),
    );
  }
}
