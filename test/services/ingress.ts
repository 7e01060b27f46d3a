import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ControlPlane, type Proc, spawnLogged, tail, terminate, until } from './control-plane.ts';
import { freePort } from './free-port.ts';

/**
 * A real ingress controller for the real-node tests: Traefik, built from its Go module by
 * scripts/ingress-controller.sh, running as a process of this machine with its Kubernetes Ingress
 * provider, as an out-of-cluster controller runs (no image can be pulled here, and building one
 * for it would test our image build twice, not the ingress). Everything else is what a platform
 * team's controller does in its own pod:
 * - it watches the cluster as a ServiceAccount bound to the ClusterRole Traefik's documentation
 *   gives its Ingress provider (nothing more), over TLS verified against the apiserver's CA;
 * - it serves the Ingresses of IngressClass `traefik` (controller traefik.io/ingress-controller)
 *   and routes to the Service's ready endpoints (pod addresses on the node's bridge, which this
 *   machine reaches);
 * - it publishes its address in each Ingress's status, as `kubectl get ingress` shows;
 * - its entry point's read timeout is the one docs/operations.md asks of an ingress (600 s; 60 s by
 *   default); its write timeout stays unset (no limit), and it has no body size limit.
 */
export interface IngressController {
  /** The IngressClass it serves. */
  readonly className: string;
  /** The entry point, http://127.0.0.1:port. */
  readonly url: string;
  /** The Traefik version running. */
  readonly version: string;
  /**
   * An HTTP request to the entry point for `host`, as a client that resolves the host to the
   * controller sends it (node's fetch sets Host from the URL, so this uses node:http).
   */
  request(
    host: string,
    method: string,
    pathAndQuery: string,
    init?: { headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number },
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>;
  logs(chars?: number): string;
  stop(): Promise<void>;
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TRAEFIK = path.join(REPO, '.cache/traefik/bin/traefik');
/** docs/operations.md "Ingress: what it must allow": uploads that take minutes. */
const READ_TIMEOUT = '600s';

/** Why no ingress controller can run here, or undefined when it can. */
export function ingressControllerUnavailable(): string | undefined {
  if (!existsSync(TRAEFIK)) return `${TRAEFIK} missing: run make install (scripts/ingress-controller.sh)`;
  return undefined;
}

/** Traefik's own RBAC for its Kubernetes Ingress provider (its documentation's ClusterRole). */
function rbac(name: string, serviceAccountNamespace: string): object[] {
  return [
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'traefik' },
      spec: { controller: 'traefik.io/ingress-controller' },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      rules: [
        { apiGroups: [''], resources: ['services', 'secrets', 'nodes'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
        {
          apiGroups: ['extensions', 'networking.k8s.io'],
          resources: ['ingresses', 'ingressclasses'],
          verbs: ['get', 'list', 'watch'],
        },
        { apiGroups: ['extensions', 'networking.k8s.io'], resources: ['ingresses/status'], verbs: ['update'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace: serviceAccountNamespace }],
    },
  ];
}

/**
 * Starts Traefik for the Ingresses of `namespace` on a control plane started with its `node`
 * option (the address pods reach the apiserver at is the one whose certificate names it).
 */
export async function startIngressController(cp: ControlPlane, namespace: string): Promise<IngressController> {
  if (!cp.node) throw new Error('startIngressController: the control plane has no node');
  const name = 'traefik';
  const saNamespace = 'kube-system';
  await cp.apply(...rbac(name, saNamespace));
  const kubeconfig = JSON.parse(await readFile(await cp.serviceAccountKubeconfig(saNamespace, name), 'utf8')) as {
    users: { user: { token: string } }[];
  };
  const tokenFile = path.join(cp.dir, 'traefik.token');
  await writeFile(tokenFile, kubeconfig.users[0]?.user.token ?? '', { mode: 0o600 });
  const version = (await readFile(path.join(path.dirname(TRAEFIK), '.version'), 'utf8')).trim();

  const port = await freePort();
  const pingPort = await freePort();
  const log = path.join(cp.dir, 'traefik.log');
  const proc: Proc = spawnLogged(
    TRAEFIK,
    [
      `--entryPoints.web.address=127.0.0.1:${port}`,
      `--entryPoints.web.transport.respondingTimeouts.readTimeout=${READ_TIMEOUT}`,
      `--entryPoints.ping.address=127.0.0.1:${pingPort}`,
      '--ping.entryPoint=ping',
      '--providers.kubernetesIngress=true',
      `--providers.kubernetesIngress.endpoint=https://${cp.node.advertiseAddress}:${cp.node.securePort}`,
      `--providers.kubernetesIngress.token=${tokenFile}`,
      `--providers.kubernetesIngress.certAuthFilePath=${path.join(cp.dir, 'certs', 'apiserver.crt')}`,
      `--providers.kubernetesIngress.namespaces=${namespace}`,
      `--providers.kubernetesIngress.ingressClass=${name}`,
      '--providers.kubernetesIngress.ingressEndpoint.ip=127.0.0.1',
      '--global.checkNewVersion=false',
      '--global.sendAnonymousUsage=false',
      '--log.level=INFO',
      '--accessLog=true',
    ],
    log,
  );
  await until('traefik', proc, 30_000, async () => {
    const res = await fetch(`http://127.0.0.1:${pingPort}/ping`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  });

  const url = `http://127.0.0.1:${port}`;
  return {
    className: name,
    url,
    version,
    request(host, method, pathAndQuery, init = {}) {
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          `${url}${pathAndQuery}`,
          { method, headers: { ...init.headers, host }, timeout: init.timeoutMs ?? 120_000 },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`${method} ${pathAndQuery} via the ingress: timed out`)));
        req.on('error', reject);
        req.end(init.body);
      });
    },
    logs: (chars = 4000) => `--- traefik ---\n${tail(log, chars)}`,
    stop: () => terminate(proc),
  };
}
