import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { V1Pod } from '@kubernetes/client-node';
import { type ControlPlane, type Proc, spawnLogged, tail, terminate, until } from './control-plane.ts';
import { freePort } from './free-port.ts';

/**
 * A real Kubernetes node for the cluster tests: Debian's containerd (1.6) and runc, the CNI
 * plugins of containernetworking-plugins on a bridge of its own, and the kubelet and kube-proxy
 * v1.33 that scripts/control-plane.sh builds, joined to a control plane started with its `node`
 * option. The images `make images` built (.cache/images/*.tar) are imported into containerd;
 * nothing is pulled (the sandbox image, too, is made here: Debian's static catatonit in pause mode).
 *
 * What this machine needs that a normal node would not (docs/operations.md says the same):
 * - containerd's CRI with `restrict_oom_score_adj = true`: root here lacks CAP_SYS_RESOURCE, so
 *   runc cannot lower a container's oom_score_adj below the daemon's own.
 * - cgroup v1 with the cgroupfs driver: no systemd runs here, and kubelets from 1.35 refuse v1.
 * - The kubelet serves (exec, logs, port-forward) on the node's bridge address only, to anonymous
 *   callers (AlwaysAllow): the apiserver has no client certificate for it here, and nothing but
 *   this machine can reach that address.
 * - Pods reach nothing outside the node: traffic from the pod network to any address not of the
 *   pod or Service networks is rejected (this workplace's network rule), so nothing is masqueraded.
 *
 * One node at a time on a machine (one bridge, one pod network): `startRealNode` waits for a node
 * another test process holds (a lock directory naming its owner's pid). Image content stays in
 * /var/lib/framewright-node between runs, so an image is imported only when it changed.
 */
export interface RealNode {
  readonly name: string;
  /** The node's address on the pod bridge: pods reach host services given to `expose` here. */
  readonly address: string;
  /** A host service on 127.0.0.1:port, forwarded at address:port so that pods reach it. */
  expose(port: number): Promise<string>;
  /** The image references on the node, e.g. docker.io/library/framewright:0.1.0. */
  readonly images: string[];
  /** How long importing (and unpacking) each image that was not on the node already took. */
  readonly imported: { ref: string; ms: number }[];
  /** `ctr` against this node's containerd (namespace k8s.io). */
  ctr(args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** Restarts containerd (pods keep running: their shims outlive it). */
  restartContainerd(): Promise<void>;
  /** The pods of `namespace` whose names start with `prefix`, as the apiserver has them. */
  pods(namespace: string, prefix?: string): Promise<V1Pod[]>;
  /**
   * Sends `signal` to a pod's first container's init process through containerd, as the kernel's
   * OOM killer or a crashed process ends one: the kubelet sees it exit (137 for SIGKILL).
   */
  kill(namespace: string, pod: string, signal?: NodeJS.Signals): Promise<void>;
  /** The logs of the node's processes, last chars of each. */
  logs(chars?: number): string;
  stop(): Promise<void>;
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const KUBE_BIN = path.join(REPO, '.cache/kube/bin');
const IMAGES = path.join(REPO, '.cache/images');
const IMAGES_SCRIPT = path.join(REPO, 'scripts/images.sh');
const STATE = '/var/lib/framewright-node';
const RUN = '/run/framewright-node';
const BRIDGE = 'fw-node0';
const POD_CIDR = '10.244.0.0/24';
export const NODE_ADDRESS = '10.244.0.1';
const PAUSE_IMAGE = 'framewright.local/pause:catatonit';
const CNI_BIN = '/usr/lib/cni';
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function podsOf(cp: ControlPlane, namespace: string, prefix: string): Promise<V1Pod[]> {
  const { stdout } = await cp.kubectl(['get', 'pods', '-n', namespace, '-o', 'json']);
  return (JSON.parse(stdout) as { items: V1Pod[] }).items.filter((p) => p.metadata?.name?.startsWith(prefix));
}

/**
 * Builds the images the node runs (`make images`: seconds when they are current), for a test file
 * to call in its `before` (scripts/test.sh builds them first for a whole run), so that a file run
 * alone never starts pods of stale images.
 */
export async function buildImages(): Promise<void> {
  await run(IMAGES_SCRIPT, [], { maxBuffer: 16 * 1024 * 1024, timeout: 1_800_000 });
}

/** Why a real node cannot start here (not root, a missing binary), or undefined when it can. */
export function realNodeUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'a real node needs root (containerd, runc, iptables, mounts)';
  for (const bin of ['kubelet', 'kube-proxy', 'kube-scheduler']) {
    if (!existsSync(path.join(KUBE_BIN, bin))) return `${bin} missing: run make install (scripts/control-plane.sh)`;
  }
  for (const bin of ['/usr/bin/containerd', '/usr/sbin/runc', `${CNI_BIN}/bridge`, '/usr/bin/catatonit']) {
    if (!existsSync(bin)) return `${bin} missing: run make install`;
  }
  return undefined;
}

async function sh(cmd: string, args: string[]): Promise<string> {
  return (await run(cmd, args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
}

/** Waits for, then takes, the machine's one node (a lock directory naming its owner). */
async function lock(): Promise<() => Promise<void>> {
  const dir = `${RUN}.lock`;
  for (;;) {
    try {
      await mkdir(dir);
      await writeFile(path.join(dir, 'pid'), String(process.pid));
      return () => rm(dir, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(await readFile(path.join(dir, 'pid'), 'utf8').catch(() => ''));
      let alive = owner > 0;
      if (alive) {
        try {
          process.kill(owner, 0);
        } catch (e) {
          alive = (e as NodeJS.ErrnoException).code !== 'ESRCH';
        }
      }
      // A pid file not yet written is a lock being taken: only a dead owner's lock is broken.
      if (owner > 0 && !alive) await rm(dir, { recursive: true, force: true });
      else await sleep(500);
    }
  }
}

/** The host networking the pod network needs, and its removal (also of a killed run's leftovers). */
const guardRule = ['FORWARD', '-s', POD_CIDR, '!', '-d', POD_CIDR, '-m', 'comment', '--comment', 'framewright-node'];
async function networkDown(): Promise<void> {
  await sh('ip', ['link', 'del', BRIDGE]).catch(() => {});
  for (;;) {
    const rm = await sh('iptables', ['-D', ...guardRule, '-j', 'REJECT']).catch(() => undefined);
    if (rm === undefined) break;
  }
  // kube-proxy's chains (KUBE-*), removed the way kube-proxy itself removes them.
  await sh(path.join(KUBE_BIN, 'kube-proxy'), ['--cleanup', '--v=0']).catch(() => {});
}
async function networkUp(): Promise<void> {
  await networkDown();
  await sh('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
  await sh('ip', ['addr', 'add', `${NODE_ADDRESS}/24`, 'dev', BRIDGE]);
  await sh('ip', ['link', 'set', BRIDGE, 'up']);
  // Routing between pods and Services (kube-proxy DNATs in the host's tables), bridged traffic
  // through iptables (a pod reaching itself or a neighbour through a Service IP).
  await writeFile('/proc/sys/net/ipv4/ip_forward', '1');
  await writeFile('/proc/sys/net/bridge/bridge-nf-call-iptables', '1').catch(() => {});
  // Nothing from the pod network goes anywhere but the pod network (Service IPs are translated to
  // pod IPs before FORWARD; the node's own address is INPUT, not FORWARD).
  await sh('iptables', ['-I', ...guardRule, '-j', 'REJECT']);
}

/** The sandbox ("pause") image: Debian's static catatonit, which reaps and waits, in pause mode. */
async function pauseArchive(dir: string): Promise<string> {
  const file = path.join(STATE, 'pause.tar');
  if (existsSync(file)) return file;
  const tmp = path.join(dir, 'pause.tar');
  const ctr = (await sh('buildah', ['from', 'scratch'])).trim();
  try {
    await sh('buildah', ['copy', '--quiet', ctr, '/usr/bin/catatonit', '/pause']);
    await sh('buildah', ['config', '--entrypoint', '["/pause","-P"]', '--user', '65535:65535', ctr]);
    await sh('buildah', ['commit', '--quiet', ctr, PAUSE_IMAGE]);
    await sh('buildah', ['push', '--quiet', PAUSE_IMAGE, `docker-archive:${tmp}:${PAUSE_IMAGE}`]);
  } finally {
    await sh('buildah', ['rm', ctr]).catch(() => {});
  }
  await sh('mv', [tmp, file]);
  return file;
}

function containerdConfig(sock: string, cniConf: string): string {
  return `version = 2
root = "${STATE}/containerd"
state = "${RUN}/containerd"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs", "io.containerd.internal.v1.tracing", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "${sock}"
[ttrpc]
  address = "${sock}.ttrpc"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${PAUSE_IMAGE}"
  # Root here lacks CAP_SYS_RESOURCE: containers may not get an oom_score_adj below containerd's.
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "/usr/sbin/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "${CNI_BIN}"
    conf_dir = "${cniConf}"
    max_conf_num = 1
`;
}

function cniConfig(): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'framewright-node',
    plugins: [
      {
        type: 'bridge',
        bridge: BRIDGE,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: 'host-local',
          ranges: [[{ subnet: POD_CIDR, gateway: NODE_ADDRESS }]],
          routes: [{ dst: '0.0.0.0/0' }],
          dataDir: `${RUN}/ipam`,
        },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  });
}

export async function startRealNode(cp: ControlPlane): Promise<RealNode> {
  const creds = cp.node;
  if (!creds) throw new Error('startRealNode: start the control plane with its `node` option');
  if (creds.advertiseAddress !== NODE_ADDRESS) {
    throw new Error(`startRealNode: the control plane must advertise ${NODE_ADDRESS}`);
  }
  const unavailable = realNodeUnavailable();
  if (unavailable) throw new Error(unavailable);
  const unlock = await lock();
  const procs: { containerd?: Proc; kubelet?: Proc; proxy?: Proc } = {};
  const servers: net.Server[] = [];
  const dir = path.join(RUN, 'node');
  const sock = path.join(RUN, 'containerd.sock');
  const logOf = (name: string) => path.join(dir, `${name}.log`);

  const stopAll = async () => {
    for (const s of servers) s.close();
    await terminate(procs.proxy, 2000);
    await terminate(procs.kubelet, 5000);
    // What the kubelet left running: every pod sandbox and container of this node.
    if (procs.containerd && procs.containerd.child.exitCode === null) {
      const tasks = await sh('ctr', ['-a', sock, '-n', 'k8s.io', 'tasks', 'ls', '-q']).catch(() => '');
      for (const id of tasks.split('\n').filter(Boolean)) {
        await sh('ctr', ['-a', sock, '-n', 'k8s.io', 'tasks', 'kill', '-s', 'SIGKILL', id]).catch(() => {});
      }
      await sleep(300);
      const containers = await sh('ctr', ['-a', sock, '-n', 'k8s.io', 'containers', 'ls', '-q']).catch(() => '');
      for (const id of containers.split('\n').filter(Boolean)) {
        await sh('ctr', ['-a', sock, '-n', 'k8s.io', 'tasks', 'rm', '-f', id]).catch(() => {});
        await sh('ctr', ['-a', sock, '-n', 'k8s.io', 'containers', 'rm', id]).catch(() => {});
      }
    }
    await terminate(procs.containerd, 5000);
    // Pod volumes (Secrets, ServiceAccount tokens) are tmpfs mounts under the kubelet's root.
    const mounts = await readFile('/proc/self/mounts', 'utf8').catch(() => '');
    const ours = mounts
      .split('\n')
      .map((l) => l.split(' ')[1] ?? '')
      .filter((m) => m.startsWith(`${RUN}/`))
      .sort((a, b) => b.length - a.length);
    for (const m of ours) await sh('umount', ['-l', m]).catch(() => {});
    await networkDown();
    await rm(RUN, { recursive: true, force: true }).catch(() => {});
    await unlock();
  };

  try {
    // A test process killed before its stop() leaves containers running under their shims, with
    // containerd's and the kubelet's state about them in RUN. That state is kept: the kubelet of
    // this run finds those pods in the runtime, belonging to no pod of its (new) cluster, and
    // kills them itself, volumes and network included. Only this run's own configuration is new.
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await mkdir(STATE, { recursive: true });
    await networkUp();

    // Pods reach the apiserver through the `kubernetes` Service, whose endpoint is the address the
    // apiserver advertises: forwarded there to the apiserver's loopback port.
    const forward = async (port: number, host = NODE_ADDRESS) => {
      const server = net.createServer((client) => {
        const upstream = net.connect(port, '127.0.0.1');
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      servers.push(server);
      return `${host}:${port}`;
    };
    await forward(creds.securePort);

    // containerd, with the CNI configuration of the bridge above.
    const cniConf = path.join(dir, 'cni');
    await mkdir(cniConf);
    await writeFile(path.join(cniConf, '10-framewright.conflist'), cniConfig());
    const containerdToml = path.join(dir, 'containerd.toml');
    await writeFile(containerdToml, containerdConfig(sock, cniConf));
    const startContainerd = async () => {
      procs.containerd = spawnLogged('/usr/bin/containerd', ['--config', containerdToml], logOf('containerd'));
      await until('containerd', procs.containerd, 30_000, async () => {
        await sh('ctr', ['-a', sock, 'version']);
        return true;
      });
    };
    await startContainerd();
    const ctr = (args: string[]) => run('ctr', ['-a', sock, '-n', 'k8s.io', ...args], { maxBuffer: 64 * 1024 * 1024 });

    // The images: each archive imported once (by the image ID saved beside it).
    const archives = [
      { tar: await pauseArchive(dir), ref: `${PAUSE_IMAGE}` },
      ...(existsSync(IMAGES) ? (await sh('ls', [IMAGES])).split('\n') : [])
        .filter((f) => f.endsWith('.tar'))
        .map((f) => ({ tar: path.join(IMAGES, f), ref: '' })),
    ];
    const present = (await ctr(['images', 'ls', '-q'])).stdout.split('\n');
    const images: string[] = [];
    const imported: { ref: string; ms: number }[] = [];
    for (const a of archives) {
      const id = existsSync(`${a.tar}.id`) ? readFileSync(`${a.tar}.id`, 'utf8').trim() : 'pause';
      // scripts/images.sh names the image each archive holds beside it (NAME.tar.ref).
      const ref = a.ref || readFileSync(`${a.tar}.ref`, 'utf8').trim();
      const stampLabel = `framewright.image-id=${id}`;
      const have =
        present.includes(ref) &&
        (await ctr(['images', 'ls', `name==${ref}`]).then((r) => r.stdout.includes(stampLabel)));
      if (!have) {
        const t0 = Date.now();
        // containerd's garbage collector may remove a snapshot the import means to build on (the
        // previous generation of the image, just replaced): "failed to prepare extraction snapshot
        // ... parent snapshot ... does not exist". Seen once in many runs; the import again unpacks it.
        for (let attempt = 1; ; attempt++) {
          try {
            await ctr(['images', 'import', a.tar]);
            break;
          } catch (err) {
            if (attempt >= 3 || !/parent snapshot .* does not exist/.test(String(err))) throw err;
          }
        }
        imported.push({ ref, ms: Date.now() - t0 });
        await ctr(['images', 'label', ref, stampLabel]);
      }
      images.push(ref);
    }

    // kube-proxy: Services as iptables rules in the host's tables.
    const [proxyHealth, proxyMetrics, kubeletPort, kubeletHealth] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const proxyConfig = path.join(dir, 'kube-proxy.yaml');
    await writeFile(
      proxyConfig,
      JSON.stringify({
        apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
        kind: 'KubeProxyConfiguration',
        clientConnection: { kubeconfig: creds.proxyKubeconfig },
        hostnameOverride: creds.name,
        bindAddress: NODE_ADDRESS,
        healthzBindAddress: `127.0.0.1:${proxyHealth}`,
        metricsBindAddress: `127.0.0.1:${proxyMetrics}`,
        mode: 'iptables',
        clusterCIDR: POD_CIDR,
        // The conntrack table's size is the host's business (no sysctl writes).
        conntrack: { maxPerCore: 0, min: 0 },
        nodePortAddresses: [`${NODE_ADDRESS}/32`],
      }),
    );
    procs.proxy = spawnLogged(
      path.join(KUBE_BIN, 'kube-proxy'),
      [`--config=${proxyConfig}`, '--v=1'],
      logOf('kube-proxy'),
    );

    // The kubelet.
    const resolv = path.join(dir, 'resolv.conf');
    // Pods get no name server: nothing of the chart resolves names, and nothing outside is reached.
    await writeFile(resolv, 'options ndots:1\n');
    const kubeletConfig = path.join(dir, 'kubelet.yaml');
    await writeFile(
      kubeletConfig,
      JSON.stringify({
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        address: NODE_ADDRESS,
        port: kubeletPort,
        readOnlyPort: 0,
        healthzBindAddress: '127.0.0.1',
        healthzPort: kubeletHealth,
        authentication: { anonymous: { enabled: true }, webhook: { enabled: false } },
        authorization: { mode: 'AlwaysAllow' },
        cgroupDriver: 'cgroupfs',
        containerRuntimeEndpoint: `unix://${sock}`,
        failSwapOn: false,
        clusterDomain: 'cluster.local',
        resolvConf: resolv,
        // A test machine's disk is whatever it is: evict only for memory.
        evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '1%', 'imagefs.available': '1%' },
        imageGCHighThresholdPercent: 100,
        imageGCLowThresholdPercent: 99,
        nodeStatusUpdateFrequency: '4s',
        syncFrequency: '10s',
        serializeImagePulls: false,
        maxPods: 110,
        podCIDR: POD_CIDR,
        registerNode: true,
        rotateCertificates: false,
        serverTLSBootstrap: false,
      }),
    );
    procs.kubelet = spawnLogged(
      path.join(KUBE_BIN, 'kubelet'),
      [
        `--config=${kubeletConfig}`,
        `--kubeconfig=${creds.kubeletKubeconfig}`,
        `--root-dir=${path.join(RUN, 'kubelet')}`,
        `--cert-dir=${path.join(dir, 'kubelet-pki')}`,
        `--hostname-override=${creds.name}`,
        `--node-ip=${NODE_ADDRESS}`,
        '--v=1',
      ],
      logOf('kubelet'),
    );
    const kubeletProc = procs.kubelet;
    await until('kubelet (node Ready)', kubeletProc, 120_000, async () => {
      const { stdout } = await cp.kubectl(['get', 'node', creds.name, '-o', 'json']);
      const node = JSON.parse(stdout) as { status?: { conditions?: { type: string; status: string }[] } };
      return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    });
    await until('kube-proxy', procs.proxy, 60_000, async () => {
      const res = await fetch(`http://127.0.0.1:${proxyHealth}/healthz`, { signal: AbortSignal.timeout(2000) });
      return res.ok;
    });

    return {
      name: creds.name,
      address: NODE_ADDRESS,
      images,
      imported,
      expose: (port) => forward(port),
      ctr: (args) => ctr(args),
      async restartContainerd() {
        await terminate(procs.containerd, 5000);
        await startContainerd();
      },
      pods: (namespace, prefix = '') => podsOf(cp, namespace, prefix),
      async kill(namespace, pod, signal = 'SIGKILL') {
        const [p] = (await podsOf(cp, namespace, pod)).filter((x) => x.metadata?.name === pod);
        const id = p?.status?.containerStatuses?.[0]?.containerID?.replace(/^containerd:\/\//, '');
        if (!id) throw new Error(`pod ${namespace}/${pod} has no running container: ${JSON.stringify(p?.status)}`);
        await ctr(['tasks', 'kill', '--signal', signal, id]);
      },
      logs(chars = 3000) {
        return ['containerd', 'kubelet', 'kube-proxy'].map((n) => `--- ${n} ---\n${tail(logOf(n), chars)}`).join('\n');
      },
      stop: stopAll,
    };
  } catch (err) {
    const logs = ['containerd', 'kubelet', 'kube-proxy'].map((n) => `--- ${n} ---\n${tail(logOf(n), 3000)}`);
    await stopAll().catch(() => {});
    throw new Error(`${(err as Error).message}\n${logs.join('\n')}`);
  }
}
