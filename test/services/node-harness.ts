import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  ApiException,
  CoordinationV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Container,
  type V1Pod,
} from '@kubernetes/client-node';
import type { ControlPlane } from './control-plane.ts';
import { freePort } from './free-port.ts';

const FRAMEWRIGHT = fileURLToPath(new URL('../../bin/framewright', import.meta.url));
/**
 * A downward-API fieldRef into the pod's labels or annotations, `metadata.labels['k']` (how the
 * Job controller hands an Indexed Job's pod its JOB_COMPLETION_INDEX).
 */
function metadataEntry(pod: V1Pod, field: string): string | undefined {
  const m = /^metadata\.(labels|annotations)\['([^']+)'\]$/.exec(field);
  if (!m) return undefined;
  return (m[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations)?.[m[2]!] ?? '';
}

/** `sh -c` script: start the watchdog, then exec the pod's command (same pid, same group). */
const WATCHDOG =
  'exec 3<&0 0</dev/null; { trap "" TERM INT HUP; cat <&3 >/dev/null 2>&1; kill -KILL 0; } >/dev/null 2>&1 & exec 3<&-; exec "$@"';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
/** Pod status lists (conditions, containerStatuses) merge by key, so binding's PodScheduled stays. */
const strategicPatch = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);

export interface NodeHarnessOptions {
  namespace: string;
  /** Default 'harness-node'. */
  nodeName?: string;
  /** Maps a container's command+args to a local process: default runs them as given, except that a first word `framewright` runs this repository's bin/framewright. */
  command?: (pod: V1Pod) => { file: string; args: string[] };
  /** Extra env for every pod process. */
  env?: NodeJS.ProcessEnv;
}

interface HistoryEntry {
  pod: string;
  exitCode: number | null;
  output: () => string;
}

/** What the node knows of one pod (by uid). */
interface PodState {
  name: string;
  uid: string;
  bound: boolean;
  started: boolean;
  deleting: boolean;
  child?: ChildProcess;
  exited?: Promise<void>;
  /** Status writes for the pod, in order (Running must land before Succeeded). */
  chain: Promise<void>;
  /** The local port each declared container port (by name and by number) is served on. */
  ports?: Map<string, number>;
  /** The environment its process got (what `kubectl exec` into it sees). */
  env?: NodeJS.ProcessEnv;
}

function defaultCommand(pod: V1Pod): { file: string; args: string[] } {
  const c = pod.spec?.containers[0];
  // No command: the image's ENTRYPOINT, `tini -- framewright` in both images of this repository.
  const words = [...(c?.command ?? ['framewright']), ...(c?.args ?? [])];
  const [first, ...rest] = words;
  if (!first) throw new Error(`pod ${pod.metadata?.name}: its container has no command or args to run here`);
  return { file: first === 'framewright' ? FRAMEWRIGHT : first, args: rest };
}

function errorCode(err: unknown): number | undefined {
  if (err instanceof ApiException) return err.code;
  return undefined;
}

function describe(err: unknown): string {
  if (err instanceof ApiException)
    return `${err.code} ${typeof err.body === 'string' ? err.body : JSON.stringify(err.body)}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A hollow node for `make bench-operator` (bench/operator.ts) only, as Kubernetes' own scale tests
 * use kubemark's: the bench runs 1,000 worker pods at once, which a real node of this machine's 2
 * CPUs (and the kubelet's 110-pod limit) cannot. Every test that runs pods uses the real node
 * (real-node.ts); test/cluster/control-plane.test.ts holds this harness to what the bench needs.
 *
 * Plays a Kubernetes node without a kubelet: registers a Ready Node with GPUs, binds every
 * unscheduled pod of the namespace to itself (there is no scheduler either), runs each bound pod's
 * first container as a local process with the pod's env and identity (a ServiceAccount kubeconfig
 * in KUBECONFIG), reports Running (Ready once an HTTP readiness probe answers) and then
 * Succeeded/Failed with the exit code on the pods/status subresource, and carries out graceful pod
 * deletion the way a kubelet does. Long-running pods (a Deployment's, with container ports) get a
 * free local port per container port (portOf), and exec runs a command with a pod's environment.
 */
export class NodeHarness {
  readonly history: HistoryEntry[] = [];
  private readonly pods = new Map<string, PodState>();
  private readonly core: CoreV1Api;
  private readonly leases: CoordinationV1Api;
  private readonly nodeName: string;
  private stopped = false;
  private watchReq: ReturnType<typeof httpsRequest> | undefined;
  private loop: Promise<void> = Promise.resolve();
  private leaseTimer: NodeJS.Timeout | undefined;
  private readonly errors: string[] = [];

  private constructor(
    private readonly cp: ControlPlane,
    private readonly opts: NodeHarnessOptions,
    private readonly kc: KubeConfig,
  ) {
    this.core = kc.makeApiClient(CoreV1Api);
    this.leases = kc.makeApiClient(CoordinationV1Api);
    this.nodeName = opts.nodeName ?? 'harness-node';
  }

  static async start(cp: ControlPlane, opts: NodeHarnessOptions): Promise<NodeHarness> {
    const kc = new KubeConfig();
    kc.loadFromFile(cp.adminKubeconfig);
    const node = new NodeHarness(cp, opts, kc);
    await node.register();
    node.loop = node.watchLoop();
    return node;
  }

  /** Problems the harness met (API errors while reporting status etc.), for failure messages. */
  get problems(): readonly string[] {
    return this.errors;
  }

  /** Kills a pod's process (its whole process group) with the signal; false when none runs. */
  kill(podName: string, signal: NodeJS.Signals = 'SIGKILL'): boolean {
    for (const s of this.pods.values()) {
      if (s.name === podName && s.child && s.child.exitCode === null && s.child.signalCode === null) {
        return this.signal(s.child, signal);
      }
    }
    return false;
  }

  /**
   * The local port a running pod serves its container port `port` (name or number) on: a pod's
   * ports are its own, but here every pod shares 127.0.0.1 (what `kubectl port-forward` reaches).
   */
  portOf(podName: string, port: string | number): number {
    for (const s of this.pods.values()) {
      const local = s.name === podName ? s.ports?.get(String(port)) : undefined;
      if (local !== undefined) return local;
    }
    throw new Error(`no pod ${podName} with a port ${port} runs on the node harness`);
  }

  /**
   * `kubectl exec POD -- COMMAND...`: runs the command (first word `framewright`: this repository's
   * bin/framewright) with the environment the pod's process got; resolves with its exit code and output.
   */
  exec(podName: string, words: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const s = [...this.pods.values()].find((p) => p.name === podName && p.env);
    if (!s?.env) return Promise.reject(new Error(`no pod ${podName} runs on the node harness`));
    const [first, ...rest] = words;
    if (!first) return Promise.reject(new Error('exec: no command'));
    return new Promise((resolve, reject) => {
      const child = spawn(first === 'framewright' ? FRAMEWRIGHT : first, rest, {
        env: s.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => {
        stdout += c;
      });
      child.stderr.on('data', (c) => {
        stderr += c;
      });
      child.once('error', reject);
      child.once('close', (code, signal) =>
        resolve({ code: code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0), stdout, stderr }),
      );
    });
  }

  /** Names of pods whose processes run now. */
  running(): string[] {
    return [...this.pods.values()]
      .filter((s) => s.child && s.child.exitCode === null && s.child.signalCode === null)
      .map((s) => s.name);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.leaseTimer);
    this.watchReq?.destroy();
    const exits: Promise<void>[] = [];
    for (const s of this.pods.values()) {
      if (s.child && s.exited) {
        this.signal(s.child, 'SIGKILL');
        exits.push(s.exited);
      }
    }
    await Promise.race([Promise.all(exits), sleep(5000)]);
    await this.loop.catch(() => {});
  }

  // --- the Node ---

  private async register(): Promise<void> {
    const name = this.nodeName;
    const resources = { cpu: '16', memory: '64Gi', pods: '110', 'nvidia.com/gpu': '4', 'ephemeral-storage': '100Gi' };
    const labels = {
      'kubernetes.io/hostname': name,
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
    };
    try {
      await this.core.createNode({ body: { apiVersion: 'v1', kind: 'Node', metadata: { name, labels } } });
    } catch (err) {
      if (errorCode(err) !== 409) throw new Error(`creating Node ${name}: ${describe(err)}`);
    }
    // Admission (TaintNodesByCondition) taints a new node not-ready; a kubelet clears that once Ready.
    await this.core.patchNode({ name, body: { spec: { taints: null } } }, mergePatch);
    const now = new Date();
    await this.core.patchNodeStatus(
      {
        name,
        body: {
          status: {
            capacity: resources,
            allocatable: resources,
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'KubeletReady',
                message: 'node harness is posting ready status',
                lastHeartbeatTime: now,
                lastTransitionTime: now,
              },
            ],
            addresses: [
              { type: 'InternalIP', address: '127.0.0.1' },
              { type: 'Hostname', address: name },
            ],
            nodeInfo: {
              architecture: 'amd64',
              operatingSystem: 'linux',
              kubeletVersion: 'v1.33.13',
              kubeProxyVersion: '',
              containerRuntimeVersion: 'harness://1',
              kernelVersion: '',
              osImage: 'node-harness',
              bootID: '',
              machineID: '',
              systemUUID: '',
            },
          },
        },
      },
      mergePatch,
    );
    // A kubelet renews its Lease every 10 s; nothing here needs it (no node lifecycle controller
    // runs) but a test that looks at node health sees a live node.
    await this.renewLease();
    this.leaseTimer = setInterval(() => void this.renewLease(), 10_000);
    this.leaseTimer.unref();
  }

  private async renewLease(): Promise<void> {
    const name = this.nodeName;
    const spec = { holderIdentity: name, leaseDurationSeconds: 40, renewTime: new Date() as unknown as Date };
    try {
      await this.leases.patchNamespacedLease({ name, namespace: 'kube-node-lease', body: { spec } }, mergePatch);
    } catch (err) {
      if (errorCode(err) !== 404) return;
      await this.leases
        .createNamespacedLease({ namespace: 'kube-node-lease', body: { metadata: { name }, spec } })
        .catch(() => {});
    }
  }

  // --- watching pods ---

  private async watchLoop(): Promise<void> {
    let resourceVersion: string | undefined;
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!resourceVersion) {
          const list = await this.core.listNamespacedPod({ namespace: this.opts.namespace });
          resourceVersion = list.metadata?.resourceVersion;
          const seen = new Set<string>();
          for (const pod of list.items) {
            if (pod.metadata?.uid) seen.add(pod.metadata.uid);
            this.onPod('MODIFIED', pod);
          }
          // Pods that vanished while we were not watching.
          for (const [uid, s] of this.pods) if (!seen.has(uid)) this.onGone(uid, s);
        }
        const result = await this.watchOnce(resourceVersion!, (rv) => {
          resourceVersion = rv;
        });
        if (result === 'gone') resourceVersion = undefined;
        failures = 0;
      } catch (err) {
        if (this.stopped) return;
        failures++;
        if (failures > 3) resourceVersion = undefined;
        this.problem(`pod watch: ${describe(err)}`);
        await sleep(Math.min(200 * 2 ** failures, 2000));
      }
    }
  }

  /** One watch request from `rv`; resolves when the server ends it, 'gone' on 410. */
  private watchOnce(rv: string, setRv: (rv: string) => void): Promise<'ended' | 'gone'> {
    const user = this.kc.getCurrentUser();
    const server = this.cp.server;
    const q = new URLSearchParams({
      watch: 'true',
      resourceVersion: rv,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(60 + Math.floor(Math.random() * 30)),
    });
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        `${server}/api/v1/namespaces/${encodeURIComponent(this.opts.namespace)}/pods?${q}`,
        { rejectUnauthorized: false, headers: { authorization: `Bearer ${user?.token}`, accept: 'application/json' } },
        (res) => {
          if (res.statusCode === 410) {
            res.resume();
            resolve('gone');
            return;
          }
          if (res.statusCode !== 200) {
            let text = '';
            res.on('data', (c) => {
              text += c;
            });
            res.on('end', () => reject(new Error(`watch pods: ${res.statusCode} ${text.slice(0, 300)}`)));
            return;
          }
          res.setEncoding('utf8');
          let buf = '';
          let gone = false;
          res.on('data', (chunk: string) => {
            buf += chunk;
            for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
              const line = buf.slice(0, nl).trim();
              buf = buf.slice(nl + 1);
              if (!line) continue;
              let ev: { type: string; object: V1Pod & { code?: number } };
              try {
                ev = JSON.parse(line);
              } catch {
                continue;
              }
              if (ev.type === 'ERROR') {
                if (ev.object.code === 410) gone = true;
                req.destroy();
                continue;
              }
              const objRv = ev.object.metadata?.resourceVersion;
              if (objRv) setRv(objRv);
              if (ev.type !== 'BOOKMARK') this.onPod(ev.type, ev.object);
            }
          });
          res.on('end', () => resolve(gone ? 'gone' : 'ended'));
          res.on('close', () => resolve(gone ? 'gone' : 'ended'));
          res.on('error', (err) => (gone ? resolve('gone') : reject(err)));
        },
      );
      this.watchReq = req;
      req.on('error', reject);
      req.end();
    });
  }

  private onPod(type: string, pod: V1Pod): void {
    if (this.stopped) return;
    const uid = pod.metadata?.uid;
    const name = pod.metadata?.name;
    if (!uid || !name) return;
    if (type === 'DELETED') {
      const s = this.pods.get(uid);
      if (s) this.onGone(uid, s);
      return;
    }
    const nodeName = pod.spec?.nodeName;
    if (nodeName && nodeName !== this.nodeName) return;
    let s = this.pods.get(uid);
    if (!s) {
      s = { name, uid, bound: !!nodeName, started: false, deleting: false, chain: Promise.resolve() };
      this.pods.set(uid, s);
    }
    const phase = pod.status?.phase;
    const terminal = phase === 'Succeeded' || phase === 'Failed';
    if (pod.metadata?.deletionTimestamp) {
      if (!s.deleting) {
        s.deleting = true;
        void this.deletePod(s, pod);
      }
      return;
    }
    if (!nodeName) {
      if (!s.bound) {
        s.bound = true;
        void this.bind(s, pod);
      }
      return;
    }
    s.bound = true;
    if (!s.started && !terminal) {
      s.started = true;
      void this.run(s, pod).catch((err) => this.problem(`pod ${name}: ${describe(err)}`));
    }
  }

  /** The pod is gone from the API: its process (if any) must not outlive it. */
  private onGone(uid: string, s: PodState): void {
    this.pods.delete(uid);
    if (s.child && s.child.exitCode === null && s.child.signalCode === null) this.signal(s.child, 'SIGKILL');
  }

  private async bind(s: PodState, pod: V1Pod): Promise<void> {
    try {
      await this.core.createNamespacedPodBinding({
        name: s.name,
        namespace: this.opts.namespace,
        body: {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: s.name, uid: pod.metadata?.uid },
          target: { apiVersion: 'v1', kind: 'Node', name: this.nodeName },
        },
      });
      // The watch's MODIFIED event (with spec.nodeName) starts it.
    } catch (err) {
      if (errorCode(err) === 404 || errorCode(err) === 409) return;
      s.bound = false;
      this.problem(`binding pod ${s.name}: ${describe(err)}`);
    }
  }

  // --- running a pod ---

  private async run(s: PodState, pod: V1Pod): Promise<void> {
    const container = pod.spec?.containers[0];
    if (!container) throw new Error('no container');
    const ns = this.opts.namespace;
    let env: NodeJS.ProcessEnv;
    let cmd: { file: string; args: string[] };
    try {
      s.ports = new Map();
      for (const p of container.ports ?? []) {
        const local = await freePort();
        s.ports.set(String(p.containerPort), local);
        if (p.name) s.ports.set(p.name, local);
      }
      env = await this.environment(pod, container, s.ports);
      s.env = env;
      cmd = (this.opts.command ?? defaultCommand)(pod);
    } catch (err) {
      // A kubelet reports CreateContainerConfigError and retries; here the pod fails at once.
      this.problem(`pod ${s.name}: ${describe(err)}`);
      await this.report(s, { exitCode: 128, reason: 'CreateContainerConfigError', message: describe(err) });
      return;
    }
    if (this.stopped || s.deleting || !this.pods.has(s.uid)) return;

    const started = new Date();
    let output = '';
    // The pod runs in a process group of its own (detached), beside a watchdog that reads the
    // stdin pipe this process holds: when this process dies, however it dies (SIGKILL, a test
    // runner's timeout), the pipe closes and the watchdog kills the whole group, the pod's own
    // children included. The watchdog ignores SIGTERM so that a graceful deletion stays graceful.
    const child = spawn('/bin/sh', ['-c', WATCHDOG, 'node-harness-pod', cmd.file, ...cmd.args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdin?.on('error', () => {});
    const entry: HistoryEntry = { pod: s.name, exitCode: null, output: () => output };
    this.history.push(entry);
    s.child = child;
    const keep = (c: Buffer) => {
      output += c.toString();
      if (output.length > 1_000_000) output = output.slice(-500_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    s.exited = new Promise<void>((resolve) => {
      let done = false;
      const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
        if (done) return;
        done = true;
        const exitCode = spawnError ? 127 : signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 0);
        entry.exitCode = exitCode;
        if (spawnError) output += `\n[node-harness] ${spawnError.message}\n`;
        // Reap the rest of its process group (`sh -c` leaves children behind when killed).
        if (child.pid) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {}
        }
        void this.report(s, {
          exitCode,
          reason: exitCode === 0 ? 'Completed' : 'Error',
          startedAt: started,
          ...(spawnError ? { message: spawnError.message } : {}),
        }).finally(resolve);
      };
      child.once('exit', (code, signal) => finish(code, signal));
      child.once('error', (err) => finish(null, null, err));
    });
    liveChildren.add(child);
    void s.exited.then(() => liveChildren.delete(child));
    hookExit();

    // With an HTTP readiness probe the pod turns Ready once the probe answers 2xx (probed until
    // then, not after); without one, at once.
    const probe = container.readinessProbe?.httpGet;
    const probePort = probe ? s.ports?.get(String(probe.port)) : undefined;
    const ready = (status: 'True' | 'False') =>
      ['Initialized', 'PodReadyToStartContainers', 'ContainersReady', 'Ready'].map((type) => ({
        type,
        status: type === 'Initialized' || type === 'PodReadyToStartContainers' ? 'True' : status,
        lastTransitionTime: started,
      }));
    this.enqueue(s, async () => {
      if (entry.exitCode !== null) return; // it finished already; the terminal status follows
      await this.core.patchNamespacedPodStatus(
        {
          name: s.name,
          namespace: ns,
          body: {
            status: {
              phase: 'Running',
              hostIP: '127.0.0.1',
              hostIPs: [{ ip: '127.0.0.1' }],
              podIP: '127.0.0.1',
              podIPs: [{ ip: '127.0.0.1' }],
              startTime: started,
              conditions: ready(probePort ? 'False' : 'True'),
              containerStatuses: [
                {
                  name: container.name,
                  image: container.image ?? '',
                  imageID: '',
                  containerID: `harness://${child.pid}`,
                  ready: !probePort,
                  started: true,
                  restartCount: 0,
                  state: { running: { startedAt: started } },
                },
              ],
            },
          },
        },
        strategicPatch,
      );
    });
    if (probe && probePort) void this.probeReady(s, entry, `http://127.0.0.1:${probePort}${probe.path ?? '/'}`);
  }

  /** Polls the readiness probe until it answers 2xx, then reports the pod Ready. */
  private async probeReady(s: PodState, entry: HistoryEntry, url: string): Promise<void> {
    while (!this.stopped && !s.deleting && entry.exitCode === null) {
      const ok = await fetch(url, { signal: AbortSignal.timeout(3000) }).then(
        (r) => r.status >= 200 && r.status < 400,
        () => false,
      );
      if (ok) break;
      await sleep(250);
    }
    if (this.stopped || s.deleting || entry.exitCode !== null) return;
    await this.enqueue(s, async () => {
      if (entry.exitCode !== null) return;
      const pod = await this.core.readNamespacedPod({ name: s.name, namespace: this.opts.namespace });
      const now = new Date();
      await this.core.patchNamespacedPodStatus(
        {
          name: s.name,
          namespace: this.opts.namespace,
          body: {
            status: {
              conditions: ['ContainersReady', 'Ready'].map((type) => ({
                type,
                status: 'True',
                lastTransitionTime: now,
              })),
              containerStatuses: (pod.status?.containerStatuses ?? []).map((c) => ({ ...c, ready: true })),
            },
          },
        },
        strategicPatch,
      );
    });
  }

  /** Writes the terminal status (the container ended with `exitCode`). */
  private report(
    s: PodState,
    t: { exitCode: number; reason: string; message?: string; startedAt?: Date },
  ): Promise<void> {
    return this.enqueue(s, async () => {
      const pod = await this.core.readNamespacedPod({ name: s.name, namespace: this.opts.namespace }).catch((err) => {
        if (errorCode(err) === 404) return undefined;
        throw err;
      });
      if (!pod || pod.metadata?.uid !== s.uid) return;
      const container = pod.spec?.containers[0];
      const finished = new Date();
      const startedAt = t.startedAt ?? finished;
      const conditions = ['Initialized', 'PodReadyToStartContainers', 'ContainersReady', 'Ready'].map((type) => ({
        type,
        status: type === 'Initialized' ? 'True' : 'False',
        lastTransitionTime: finished,
        ...(type === 'Ready' || type === 'ContainersReady' ? { reason: 'PodCompleted' } : {}),
      }));
      await this.core.patchNamespacedPodStatus(
        {
          name: s.name,
          namespace: this.opts.namespace,
          body: {
            status: {
              phase: t.exitCode === 0 ? 'Succeeded' : 'Failed',
              startTime: pod.status?.startTime ?? startedAt,
              conditions,
              containerStatuses: [
                {
                  name: container?.name ?? 'main',
                  image: container?.image ?? '',
                  imageID: '',
                  ready: false,
                  started: false,
                  restartCount: 0,
                  state: {
                    running: null,
                    terminated: {
                      exitCode: t.exitCode,
                      reason: t.reason,
                      ...(t.message ? { message: t.message } : {}),
                      startedAt,
                      finishedAt: finished,
                    },
                  },
                },
              ],
            },
          },
        },
        strategicPatch,
      );
    });
  }

  /** Runs status writes of one pod one after another; a failed write is retried a few times. */
  private enqueue(s: PodState, write: () => Promise<void>): Promise<void> {
    s.chain = s.chain.then(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await write();
          return;
        } catch (err) {
          const code = errorCode(err);
          if (code === 404 || this.stopped || attempt >= 8) {
            if (code !== 404 && !this.stopped) this.problem(`status of pod ${s.name}: ${describe(err)}`);
            return;
          }
          await sleep(250 * attempt);
        }
      }
    });
    return s.chain;
  }

  /** The container's env as a kubelet would build it, plus the harness's own. */
  private async environment(
    pod: V1Pod,
    container: V1Container,
    ports: Map<string, number>,
  ): Promise<NodeJS.ProcessEnv> {
    const ns = this.opts.namespace;
    const env: NodeJS.ProcessEnv = { ...process.env, ...this.opts.env };
    // node:test marks its file processes with this; a pod's node process must not think it is one.
    delete env.NODE_TEST_CONTEXT;
    const secrets = new Map<string, Record<string, string>>();
    const configMaps = new Map<string, Record<string, string>>();
    const secret = async (name: string) => {
      if (!secrets.has(name)) {
        const s = await this.core.readNamespacedSecret({ name, namespace: ns });
        const data: Record<string, string> = {};
        for (const [k, v] of Object.entries(s.data ?? {})) data[k] = Buffer.from(v, 'base64').toString('utf8');
        for (const [k, v] of Object.entries(s.stringData ?? {})) data[k] = v;
        secrets.set(name, data);
      }
      return secrets.get(name)!;
    };
    const configMap = async (name: string) => {
      if (!configMaps.has(name)) {
        const c = await this.core.readNamespacedConfigMap({ name, namespace: ns });
        configMaps.set(name, c.data ?? {});
      }
      return configMaps.get(name)!;
    };
    const optionalMissing = (err: unknown, optional: boolean | undefined) => optional && errorCode(err) === 404;

    for (const from of container.envFrom ?? []) {
      const prefix = from.prefix ?? '';
      try {
        const data = from.secretRef
          ? await secret(from.secretRef.name!)
          : from.configMapRef
            ? await configMap(from.configMapRef.name!)
            : {};
        for (const [k, v] of Object.entries(data)) env[prefix + k] = v;
      } catch (err) {
        if (!optionalMissing(err, from.secretRef?.optional ?? from.configMapRef?.optional)) throw err;
      }
    }
    for (const e of container.env ?? []) {
      if (e.value !== undefined) {
        // $(VAR) references to earlier variables, as a kubelet expands them.
        env[e.name] = e.value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, v: string) => env[v] ?? m);
        // A value that is one of the container's ports (how the chart hands PORT, METRICS_PORT,
        // OPERATOR_METRICS_PORT) becomes the local port the harness serves it on.
        const local = /^\d+$/.test(env[e.name] ?? '') ? ports.get(env[e.name]!) : undefined;
        if (local !== undefined) env[e.name] = String(local);
        continue;
      }
      const from = e.valueFrom;
      if (!from) {
        env[e.name] = '';
      } else if (from.fieldRef) {
        const field = from.fieldRef.fieldPath;
        const value =
          field === 'metadata.name'
            ? pod.metadata?.name
            : field === 'metadata.namespace'
              ? pod.metadata?.namespace
              : field === 'spec.nodeName'
                ? this.nodeName
                : field === 'metadata.uid'
                  ? pod.metadata?.uid
                  : field === 'spec.serviceAccountName'
                    ? (pod.spec?.serviceAccountName ?? 'default')
                    : field === 'status.hostIP' || field === 'status.podIP'
                      ? '127.0.0.1'
                      : metadataEntry(pod, field);
        if (value === undefined)
          throw new Error(`env ${e.name}: fieldRef ${field} is not supported by the node harness`);
        env[e.name] = value;
      } else if (from.secretKeyRef) {
        const { name, key, optional } = from.secretKeyRef;
        try {
          const v = (await secret(name!))[key];
          if (v === undefined && !optional) throw new Error(`env ${e.name}: secret ${name} has no key ${key}`);
          if (v !== undefined) env[e.name] = v;
        } catch (err) {
          if (!optionalMissing(err, optional)) throw err;
        }
      } else if (from.configMapKeyRef) {
        const { name, key, optional } = from.configMapKeyRef;
        try {
          const v = (await configMap(name!))[key];
          if (v === undefined && !optional) throw new Error(`env ${e.name}: configmap ${name} has no key ${key}`);
          if (v !== undefined) env[e.name] = v;
        } catch (err) {
          if (!optionalMissing(err, optional)) throw err;
        }
      } else {
        throw new Error(`env ${e.name}: this valueFrom is not supported by the node harness`);
      }
    }
    env.KUBECONFIG = await this.cp.serviceAccountKubeconfig(ns, pod.spec?.serviceAccountName ?? 'default');
    env.POD_NAME ??= pod.metadata?.name;
    env.POD_NAMESPACE ??= pod.metadata?.namespace;
    return env;
  }

  // --- deleting a pod ---

  /** A kubelet's graceful deletion: SIGTERM, SIGKILL after the grace period, then the final delete. */
  private async deletePod(s: PodState, pod: V1Pod): Promise<void> {
    const child = s.child;
    if (child && s.exited && child.exitCode === null && child.signalCode === null) {
      const graceS = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
      const graceMs = Math.min(Math.max(graceS, 0), 3) * 1000;
      this.signal(child, 'SIGTERM');
      const late = await Promise.race([s.exited.then(() => false), sleep(graceMs).then(() => true)]);
      if (late) this.signal(child, 'SIGKILL');
      await s.exited;
    } else if (s.exited) {
      await s.exited;
    }
    await s.chain;
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        await this.core.deleteNamespacedPod({
          name: s.name,
          namespace: this.opts.namespace,
          gracePeriodSeconds: 0,
          body: { gracePeriodSeconds: 0, preconditions: { uid: s.uid } },
        });
        return;
      } catch (err) {
        const code = errorCode(err);
        if (code === 404 || code === 409) return;
        if (attempt >= 8) {
          this.problem(`deleting pod ${s.name}: ${describe(err)}`);
          return;
        }
        await sleep(250 * attempt);
      }
    }
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): boolean {
    if (!child.pid) return false;
    try {
      // The pod's process group (it was started detached): a shell's children go too.
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return child.kill(signal);
    }
  }

  private problem(message: string): void {
    if (this.errors.length < 200) this.errors.push(`${new Date().toISOString()} ${message}`);
  }
}

/** Pod processes still running, killed (with their process groups) when node exits. */
const liveChildren = new Set<ChildProcess>();
let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const child of liveChildren) {
      if (!child.pid) continue;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  });
}
