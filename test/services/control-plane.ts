import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

/**
 * A real Kubernetes control plane for tests: etcd (Debian's), kube-apiserver and
 * kube-controller-manager (v1.33, built by scripts/control-plane.sh into .cache/kube/bin), all on
 * free loopback ports, everything under one temporary directory. With `node`, also kube-scheduler,
 * the controllers a node's Services need (endpoints, EndpointSlices), credentials for a kubelet and
 * kube-proxy, and the apiserver advertised at an address pods reach: real-node.ts then runs pods
 * on a kubelet with containerd. Without it, no pod runs, but for the hollow node of
 * `make bench-operator` (node-harness.ts).
 */
export interface ControlPlane {
  readonly server: string;
  readonly dir: string;
  /** A kubeconfig for an admin user in system:masters (static token). */
  readonly adminKubeconfig: string;
  /** A kubeconfig path for a ServiceAccount (created if missing) with a real TokenRequest token: RBAC applies to it exactly as in a pod. */
  serviceAccountKubeconfig(namespace: string, name: string): Promise<string>;
  /** Runs kubectl with the admin kubeconfig; throws (with stderr) when it exits non-zero. */
  kubectl(args: string[], input?: string): Promise<{ stdout: string; stderr: string }>;
  /** `kubectl apply` of these objects (one List), with the admin kubeconfig. */
  apply(...objects: object[]): Promise<void>;
  /** Starts kubectl with the admin kubeconfig and leaves it running (port-forward, watch). */
  spawnKubectl(args: string[]): ChildProcessWithoutNullStreams;
  /** Stops and starts kube-apiserver on the same port and etcd (an apiserver restart), `downMs` apart. */
  restartApiserver(downMs?: number): Promise<void>;
  /** Compacts etcd to its current revision (so watches from older resourceVersions get 410 Gone once the apiserver's watch cache no longer has them). */
  compactEtcd(): Promise<void>;
  /** Kills everything and removes dir. */
  stop(): Promise<void>;
  /** With the `node` option: what a kubelet and kube-proxy need to join (real-node.ts). */
  readonly node?: NodeCredentials;
}

/** The node a control plane was started for: its name, and kubeconfigs for its kubelet and kube-proxy. */
interface NodeCredentials {
  readonly name: string;
  /** The address pods reach the apiserver at (the `kubernetes` Service's endpoint), port `securePort`. */
  readonly advertiseAddress: string;
  readonly securePort: number;
  /** The kubelet's: user system:node:NAME in system:nodes (the Node authorizer and NodeRestriction apply). */
  readonly kubeletKubeconfig: string;
  /** kube-proxy's: user system:kube-proxy (the built-in role system:node-proxier). */
  readonly proxyKubeconfig: string;
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const KUBE_BIN = path.join(REPO, '.cache/kube/bin');
const ETCD = process.env.ETCD_BIN ?? '/usr/bin/etcd';
/** kubectl of the control plane's release, built beside it by scripts/control-plane.sh. */
const KUBECTL = process.env.KUBECTL_BIN ?? path.join(KUBE_BIN, 'kubectl');
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** setpriv --pdeathsig: a child is SIGKILLed by the kernel when this process dies, however it dies. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

/** Every process started here that has not exited yet; killed synchronously when node exits. */
const live = new Set<ChildProcess>();
let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const child of live) {
      try {
        child.kill('SIGKILL');
      } catch {}
    }
  });
}

/** A child process whose output goes to a log file; `tail()` reads the file's end. */
export interface Proc {
  child: ChildProcess;
  log: string;
  exited: Promise<void>;
}

export function spawnLogged(file: string, args: string[], log: string, env?: NodeJS.ProcessEnv): Proc {
  hookExit();
  const fd = openSync(log, 'a');
  const [cmd, argv] = SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', file, ...args]] : [file, args];
  const child = spawn(cmd, argv, { stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
  closeSync(fd);
  live.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      live.delete(child);
      resolve();
    });
    child.once('error', () => {
      live.delete(child);
      resolve();
    });
  });
  return { child, log, exited };
}

export function tail(file: string, chars = 4000): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

function exitedAlready(p: Proc): boolean {
  return p.child.exitCode !== null || p.child.signalCode !== null;
}

/** SIGTERM, SIGKILL after `graceMs`; resolves when it has exited. */
export async function terminate(p: Proc | undefined, graceMs = 5000): Promise<void> {
  if (!p || exitedAlready(p)) return;
  p.child.kill('SIGTERM');
  const late = await Promise.race([p.exited.then(() => false), sleep(graceMs).then(() => true)]);
  if (late) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
}

/** Polls `probe` until it returns true; throws with the log tail when `proc` exits or time runs out. */
export async function until(what: string, proc: Proc, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitedAlready(proc)) {
      throw new Error(
        `${what} exited (${proc.child.exitCode ?? proc.child.signalCode}) while starting:\n${tail(proc.log)}`,
      );
    }
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs} ms:\n${tail(proc.log)}`);
    await sleep(250);
  }
}

function kubeconfig(server: string, user: string, token: string, namespace: string): string {
  // JSON is YAML: kubectl and @kubernetes/client-node both read it.
  return JSON.stringify(
    {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'framewright-test', cluster: { server, 'insecure-skip-tls-verify': true } }],
      users: [{ name: user, user: { token } }],
      contexts: [{ name: 'framewright-test', context: { cluster: 'framewright-test', user, namespace } }],
      'current-context': 'framewright-test',
    },
    null,
    2,
  );
}

/**
 * An API request with the admin token (the apiserver's certificate is self-signed, so TLS is not
 * verified: node's fetch cannot skip verification, hence node:https).
 */
async function request(
  server: string,
  token: string,
  method: string,
  urlPath: string,
  body?: unknown,
  timeoutMs = 10_000,
): Promise<{ status: number; json: unknown; text: string }> {
  const https = await import('node:https');
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request(
      `${server}${urlPath}`,
      {
        method,
        rejectUnauthorized: false,
        timeout: timeoutMs,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, json, text });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Directories of control planes whose test process died without stop() (SIGKILL): their
 * processes died with it (pdeathsig), the directory (in RAM, on /dev/shm) is removed here.
 */
async function removeAbandoned(base: string): Promise<void> {
  const entries = await readdir(base).catch(() => [] as string[]);
  for (const name of entries.filter((n) => n.startsWith('fw-kube-'))) {
    const dir = path.join(base, name);
    const owner = Number(await readFile(path.join(dir, 'owner.pid'), 'utf8').catch(() => ''));
    if (!owner) continue;
    let alive = true;
    try {
      process.kill(owner, 0);
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code !== 'ESRCH';
    }
    if (!alive) await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

export async function startControlPlane(
  opts: {
    namespace?: string;
    /** More kube-controller-manager controllers, e.g. deployment-controller and replicaset-controller (pods of Deployments). */
    controllers?: string[];
    /** Start for a real node (real-node.ts): a scheduler, node credentials, the apiserver advertised at this address. */
    node?: { name: string; advertiseAddress: string };
  } = {},
): Promise<ControlPlane> {
  const namespace = opts.namespace ?? 'framewright';
  const apiserverBin = path.join(KUBE_BIN, 'kube-apiserver');
  const kcmBin = path.join(KUBE_BIN, 'kube-controller-manager');
  for (const bin of [ETCD, apiserverBin, kcmBin]) {
    await access(bin).catch(() => {
      throw new Error(`${bin} is missing: run scripts/control-plane.sh (make install) first`);
    });
  }
  // tmpfs when there is one: etcd fsyncs every write, which is slow on a busy disk.
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  await removeAbandoned(base);
  const dir = await mkdtemp(path.join(base, 'fw-kube-'));
  await writeFile(path.join(dir, 'owner.pid'), String(process.pid));
  const procs: { etcd?: Proc; apiserver?: Proc; kcm?: Proc; scheduler?: Proc } = {};

  const stop = async () => {
    await Promise.all(
      [procs.scheduler, procs.kcm, procs.apiserver]
        .filter((p): p is Proc => p !== undefined)
        .map((p) => terminate(p, 1000)),
    );
    if (procs.etcd) await terminate(procs.etcd, 2000);
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const [etcdPort, peerPort, securePort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const server = `https://127.0.0.1:${securePort}`;
    const certDir = path.join(dir, 'certs');
    await mkdir(certDir);
    await mkdir(path.join(dir, 'kubeconfigs'));

    // Service-account signing keys (no openssl): the apiserver signs TokenRequest tokens with the
    // private key and verifies them with the public one.
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const saPub = path.join(certDir, 'sa.pub');
    const saKey = path.join(certDir, 'sa.key');
    await writeFile(saPub, publicKey.export({ type: 'spki', format: 'pem' }));
    await writeFile(saKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const adminToken = randomBytes(24).toString('hex');
    const tokens = path.join(certDir, 'tokens.csv');
    // The node's components each as the user the built-in RBAC roles and the Node authorizer expect.
    const nodeUsers = opts.node
      ? {
          kubelet: [randomBytes(24).toString('hex'), `system:node:${opts.node.name}`, 'system:nodes'],
          proxy: [randomBytes(24).toString('hex'), 'system:kube-proxy', ''],
          scheduler: [randomBytes(24).toString('hex'), 'system:kube-scheduler', ''],
        }
      : undefined;
    const tokenLines = [[adminToken, 'admin', 'system:masters'], ...Object.values(nodeUsers ?? {})].map(
      ([token, user, group]) => `${token},${user},${user}${group ? `,"${group}"` : ''}\n`,
    );
    await writeFile(tokens, tokenLines.join(''), { mode: 0o600 });
    const adminKubeconfig = path.join(dir, 'kubeconfigs', 'admin.yaml');
    await writeFile(adminKubeconfig, kubeconfig(server, 'admin', adminToken, namespace));
    const userKubeconfig = async (name: string, [token = '', user = '']: string[]) => {
      const file = path.join(dir, 'kubeconfigs', `${name}.yaml`);
      await writeFile(file, kubeconfig(server, user, token, 'default'), { mode: 0o600 });
      return file;
    };
    const node: NodeCredentials | undefined =
      opts.node && nodeUsers
        ? {
            name: opts.node.name,
            advertiseAddress: opts.node.advertiseAddress,
            securePort,
            kubeletKubeconfig: await userKubeconfig('kubelet', nodeUsers.kubelet),
            proxyKubeconfig: await userKubeconfig('kube-proxy', nodeUsers.proxy),
          }
        : undefined;

    // etcd
    const etcdLog = path.join(dir, 'etcd.log');
    const startEtcd = () =>
      spawnLogged(
        ETCD,
        [
          '--name=default',
          `--data-dir=${path.join(dir, 'etcd')}`,
          `--listen-client-urls=${etcdUrl}`,
          `--advertise-client-urls=${etcdUrl}`,
          `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
          `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
          '--initial-cluster-state=new',
          '--logger=zap',
          '--log-level=warn',
          '--snapshot-count=10000',
          '--quota-backend-bytes=1073741824',
        ],
        etcdLog,
      );
    procs.etcd = startEtcd();
    await until('etcd', procs.etcd, 60_000, async () => {
      const res = await fetch(`${etcdUrl}/health`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json()) as { health?: string };
      return body.health === 'true';
    });

    // kube-apiserver
    const apiserverLog = path.join(dir, 'kube-apiserver.log');
    const apiserverArgs = [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      `--advertise-address=${opts.node?.advertiseAddress ?? '127.0.0.1'}`,
      `--secure-port=${securePort}`,
      `--cert-dir=${certDir}`,
      '--authorization-mode=Node,RBAC',
      `--token-auth-file=${tokens}`,
      `--service-account-key-file=${saPub}`,
      `--service-account-signing-key-file=${saKey}`,
      `--service-account-issuer=${ISSUER}`,
      `--api-audiences=${ISSUER}`,
      '--service-cluster-ip-range=10.96.0.0/24',
      // A test restarts the apiserver and expects it back at once: no lame-duck period.
      '--shutdown-delay-duration=0s',
      '--shutdown-watch-termination-grace-period=0s',
      '--profiling=false',
      // The 'kubernetes' Service's endpoints would be 127.0.0.1, which the API rejects (loopback).
      // For a real node they are the advertised address, where real-node.ts forwards to this port.
      ...(opts.node
        ? ['--kubelet-preferred-address-types=InternalIP', '--enable-admission-plugins=NodeRestriction']
        : ['--endpoint-reconciler-type=none']),
      // Fewer concurrent requests than a production apiserver (memory; a test needs few).
      '--max-requests-inflight=100',
      '--max-mutating-requests-inflight=50',
      '--v=1',
    ];
    // GOMEMLIMIT makes Go's GC work harder before the heap grows (a soft limit, not a cap).
    const goEnv = { GOMEMLIMIT: '384MiB', GOMAXPROCS: '2' };
    const startApiserver = async () => {
      const p = spawnLogged(apiserverBin, apiserverArgs, apiserverLog, goEnv);
      procs.apiserver = p;
      await until('kube-apiserver', p, 120_000, async () => {
        const res = await request(server, adminToken, 'GET', '/readyz', undefined, 3000);
        return res.status === 200;
      });
    };
    await startApiserver();

    // kube-controller-manager (no serving port: its readiness shows in what its controllers do).
    const kcmLog = path.join(dir, 'kube-controller-manager.log');
    procs.kcm = spawnLogged(
      kcmBin,
      [
        `--kubeconfig=${adminKubeconfig}`,
        '--leader-elect=false',
        `--controllers=${[
          'job-controller',
          'garbage-collector-controller',
          'ttl-after-finished-controller',
          'serviceaccount-controller',
          'serviceaccount-token-controller',
          'namespace-controller',
          'root-ca-certificate-publisher-controller',
          // A real node's: Services' endpoints for kube-proxy, and the not-ready taint taken off the
          // Node once its kubelet reports Ready (node-lifecycle-controller).
          ...(opts.node
            ? [
                'endpoints-controller',
                'endpointslice-controller',
                'pod-garbage-collector-controller',
                'node-lifecycle-controller',
              ]
            : []),
          ...(opts.controllers ?? []),
        ].join(',')}`,
        `--service-account-private-key-file=${saKey}`,
        `--root-ca-file=${path.join(certDir, 'apiserver.crt')}`,
        '--use-service-account-credentials=false',
        '--secure-port=0',
        '--concurrent-job-syncs=5',
        '--kube-api-qps=100',
        '--kube-api-burst=200',
        '--v=1',
      ],
      kcmLog,
      goEnv,
    );

    if (nodeUsers) {
      const schedulerKubeconfig = await userKubeconfig('kube-scheduler', nodeUsers.scheduler);
      procs.scheduler = spawnLogged(
        path.join(KUBE_BIN, 'kube-scheduler'),
        [
          `--kubeconfig=${schedulerKubeconfig}`,
          `--authentication-kubeconfig=${schedulerKubeconfig}`,
          `--authorization-kubeconfig=${schedulerKubeconfig}`,
          '--leader-elect=false',
          '--secure-port=0',
          '--v=1',
        ],
        path.join(dir, 'kube-scheduler.log'),
        goEnv,
      );
    }

    const cp: ControlPlane = {
      server,
      dir,
      adminKubeconfig,
      node,
      async serviceAccountKubeconfig(ns, name) {
        const sa = await request(server, adminToken, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts/${name}`);
        if (sa.status === 404) {
          const made = await request(server, adminToken, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
            apiVersion: 'v1',
            kind: 'ServiceAccount',
            metadata: { name },
          });
          if (made.status !== 201 && made.status !== 409) {
            throw new Error(`creating ServiceAccount ${ns}/${name}: ${made.status} ${made.text}`);
          }
        } else if (sa.status !== 200) {
          throw new Error(`reading ServiceAccount ${ns}/${name}: ${sa.status} ${sa.text}`);
        }
        const res = await request(
          server,
          adminToken,
          'POST',
          `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`,
          {
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'TokenRequest',
            spec: { audiences: [ISSUER], expirationSeconds: 86_400 },
          },
        );
        const token = (res.json as { status?: { token?: string } } | undefined)?.status?.token;
        if (res.status !== 201 || !token) {
          throw new Error(`TokenRequest for ${ns}/${name}: ${res.status} ${res.text}`);
        }
        const file = path.join(dir, 'kubeconfigs', `sa-${ns}-${name}.yaml`);
        // Atomically: a pod process may be reading the file while the next pod's token is written.
        const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
        await writeFile(tmp, kubeconfig(server, `system:serviceaccount:${ns}:${name}`, token, ns), { mode: 0o600 });
        await rename(tmp, file);
        return file;
      },
      async apply(...objects) {
        await this.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
      },
      spawnKubectl(args) {
        return spawn(KUBECTL, [`--kubeconfig=${adminKubeconfig}`, ...args]);
      },
      kubectl(args, input) {
        return new Promise((resolve, reject) => {
          const child = spawn(KUBECTL, [`--kubeconfig=${adminKubeconfig}`, ...args], {
            stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
          });
          let stdout = '';
          let stderr = '';
          child.stdout?.on('data', (c) => {
            stdout += c;
          });
          child.stderr?.on('data', (c) => {
            stderr += c;
          });
          child.once('error', reject);
          child.once('close', (code) => {
            if (code === 0) resolve({ stdout, stderr });
            else {
              const err = new Error(`kubectl ${args.join(' ')} exited ${code}: ${stderr.trim()}`);
              Object.assign(err, { stdout, stderr, code });
              reject(err);
            }
          });
          if (input !== undefined) child.stdin?.end(input);
        });
      },
      async restartApiserver(downMs = 0) {
        // SIGTERM stops it listening at once, but v1.33's graceful shutdown then often hangs for
        // 10 s and more (after its controllers stop): SIGKILL follows after 2 s.
        if (procs.apiserver) await terminate(procs.apiserver, 2000);
        if (downMs > 0) await sleep(downMs);
        await startApiserver();
      },
      async compactEtcd() {
        const post = async (p: string, body: unknown) => {
          const res = await fetch(`${etcdUrl}${p}`, { method: 'POST', body: JSON.stringify(body) });
          if (!res.ok) throw new Error(`etcd ${p}: ${res.status} ${await res.text()}`);
          return (await res.json()) as { header?: { revision?: string } };
        };
        // A range read of any key returns the store's current revision in its header.
        const { header } = await post('/v3/kv/range', { key: Buffer.from('/').toString('base64') });
        const revision = header?.revision;
        if (!revision) throw new Error('etcd did not report its revision');
        await post('/v3/kv/compaction', { revision, physical: true });
      },
      stop,
    };

    // The namespace, and its default ServiceAccount (pods cannot be created without it; the
    // serviceaccount controller makes it, which also shows the controller manager works).
    const nsRes = await request(server, adminToken, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace },
    });
    if (nsRes.status !== 201 && nsRes.status !== 409) {
      throw new Error(`creating namespace ${namespace}: ${nsRes.status} ${nsRes.text}`);
    }
    await until('kube-controller-manager', procs.kcm, 120_000, async () => {
      const res = await request(server, adminToken, 'GET', `/api/v1/namespaces/${namespace}/serviceaccounts/default`);
      return res.status === 200;
    });
    return cp;
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
