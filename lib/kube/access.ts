import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import path from 'node:path';
import yaml from 'js-yaml';

/**
 * What a request to the apiserver needs: where it is and how to authenticate. @kubernetes/client-node's
 * KubeConfig has this shape too (tests and tools may pass one), but loading that package costs a
 * process about 70 MB of memory for its generated API classes, which the operator and the worker
 * never use: they talk to the apiserver through lib/kube/http.ts, with this.
 */
export interface KubeAccess {
  getCurrentCluster(): { server: string } | null;
  /** Adds TLS settings and credentials to a request's options (reads a rotating token afresh). */
  applyToHTTPSOptions(opts: RequestOptions): Promise<void>;
}

interface Credentials {
  server: string;
  ca?: Buffer | undefined;
  insecureSkipTlsVerify?: boolean | undefined;
  cert?: Buffer | undefined;
  key?: Buffer | undefined;
  token?: string | undefined;
  /** A projected service-account token is rotated by the kubelet: read it at most once a minute. */
  tokenFile?: string | undefined;
}

const TOKEN_TTL_MS = 60_000;

class Access implements KubeAccess {
  private token: { value: string; readAt: number } | undefined;

  constructor(private readonly c: Credentials) {}

  getCurrentCluster(): { server: string } {
    return { server: this.c.server };
  }

  async applyToHTTPSOptions(opts: RequestOptions): Promise<void> {
    if (this.c.ca) opts.ca = this.c.ca;
    if (this.c.insecureSkipTlsVerify) opts.rejectUnauthorized = false;
    if (this.c.cert) opts.cert = this.c.cert;
    if (this.c.key) opts.key = this.c.key;
    const token = this.bearer();
    if (token) opts.headers = { ...opts.headers, authorization: `Bearer ${token}` };
  }

  private bearer(): string | undefined {
    if (this.c.token) return this.c.token;
    if (!this.c.tokenFile) return undefined;
    const now = Date.now();
    if (!this.token || now - this.token.readAt > TOKEN_TTL_MS) {
      this.token = { value: readFileSync(this.c.tokenFile, 'utf8').trim(), readAt: now };
    }
    return this.token.value;
  }
}

interface KubeconfigFile {
  'current-context'?: string;
  contexts?: { name: string; context?: { cluster?: string; user?: string } }[];
  clusters?: {
    name: string;
    cluster?: {
      server?: string;
      'certificate-authority'?: string;
      'certificate-authority-data'?: string;
      'insecure-skip-tls-verify'?: boolean;
    };
  }[];
  users?: {
    name: string;
    user?: {
      token?: string;
      tokenFile?: string;
      'client-certificate'?: string;
      'client-certificate-data'?: string;
      'client-key'?: string;
      'client-key-data'?: string;
      exec?: unknown;
      'auth-provider'?: unknown;
    };
  }[];
}

/** Inline base64 data, or a file (relative to the kubeconfig's directory). */
function material(dir: string, data: string | undefined, file: string | undefined): Buffer | undefined {
  if (data) return Buffer.from(data, 'base64');
  if (file) return readFileSync(path.resolve(dir, file));
  return undefined;
}

/**
 * The current context of a kubeconfig file: server, CA, client certificate or bearer token.
 * Exec and auth-provider plugins (cloud logins for people) are refused with a clear message:
 * a workload authenticates with a service-account token or a certificate.
 */
export function kubeAccessFromFile(file: string): KubeAccess {
  const doc = (yaml.load(readFileSync(file, 'utf8')) ?? {}) as KubeconfigFile;
  const dir = path.dirname(file);
  const current = doc['current-context'];
  const context = doc.contexts?.find((c) => c.name === current)?.context;
  if (!context?.cluster) throw new Error(`KUBECONFIG=${file}: the file has no current context with a cluster`);
  const cluster = doc.clusters?.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster?.server) throw new Error(`KUBECONFIG=${file}: cluster ${context.cluster} has no server`);
  const user = doc.users?.find((u) => u.name === context.user)?.user ?? {};
  if (user.exec || user['auth-provider']) {
    throw new Error(
      `KUBECONFIG=${file}: user ${context.user} authenticates with an exec or auth-provider plugin; give the process a token or a client certificate`,
    );
  }
  return new Access({
    server: cluster.server,
    ca: material(dir, cluster['certificate-authority-data'], cluster['certificate-authority']),
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    cert: material(dir, user['client-certificate-data'], user['client-certificate']),
    key: material(dir, user['client-key-data'], user['client-key']),
    token: user.token,
    tokenFile: user.tokenFile,
  });
}

/** In a pod: the API server from the service environment, the mounted CA and rotating token. */
export function kubeAccessInCluster(server: string, serviceAccountDir: string): KubeAccess {
  return new Access({
    server,
    ca: readFileSync(path.join(serviceAccountDir, 'ca.crt')),
    tokenFile: path.join(serviceAccountDir, 'token'),
  });
}
