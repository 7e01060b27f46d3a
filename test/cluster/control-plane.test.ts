// The test control plane (real etcd, kube-apiserver and kube-controller-manager v1.33) and the
// hollow node that plays the kubelet for `make bench-operator` (node-harness.ts; every test that
// runs pods uses the real node, test/services/real-node.ts): what the bench builds on, proven on
// the real control plane.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { ApiException, BatchV1Api, CoreV1Api, KubeConfig, type V1Job, type V1JobSpec } from '@kubernetes/client-node';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { NodeHarness } from '../services/node-harness.ts';

const NS = 'framewright';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cp: ControlPlane;
let node: NodeHarness;
let core: CoreV1Api;
let batch: BatchV1Api;

before(
  async () => {
    const t0 = Date.now();
    cp = await startControlPlane({ namespace: NS });
    const t1 = Date.now();
    node = await NodeHarness.start(cp, { namespace: NS, env: { HARNESS_EXTRA: 'extra-value' } });
    console.log(`control plane ready in ${t1 - t0} ms, node harness in ${Date.now() - t1} ms`);
    const kc = new KubeConfig();
    kc.loadFromFile(cp.adminKubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    batch = kc.makeApiClient(BatchV1Api);
  },
  { timeout: 240_000 },
);

after(async () => {
  await node?.stop();
  await cp?.stop();
});

/** What the node ran, for failure messages. */
function diagnostics(): string {
  const runs = node.history.map((h) => `${h.pod} exit=${h.exitCode}: ${h.output().slice(-300)}`).join('\n');
  return `\nnode history:\n${runs}\nnode problems:\n${node.problems.join('\n')}`;
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}${diagnostics()}`);
    }
    await sleep(200);
  }
}

function job(name: string, command: string[], spec: Partial<V1JobSpec> = {}, env?: object[]): V1Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      backoffLimit: 0,
      ...spec,
      template: {
        spec: {
          restartPolicy: 'Never',
          terminationGracePeriodSeconds: 2,
          containers: [{ name: 'main', image: 'busybox', command, ...(env ? { env } : {}) }],
        },
      },
    },
  } as V1Job;
}

/** The Job's condition of `type` when it is True. */
async function condition(name: string, type: string) {
  const j = await batch.readNamespacedJob({ name, namespace: NS });
  return j.status?.conditions?.find((c) => c.type === type && c.status === 'True');
}

function runningPodOf(jobName: string): string | undefined {
  return node.running().find((p) => p.startsWith(`${jobName}-`));
}

test('kubectl talks to kube-apiserver v1.33.13, which is ready', { timeout: 30_000 }, async () => {
  const { stdout } = await cp.kubectl(['version', '-o', 'json']);
  assert.equal(JSON.parse(stdout).serverVersion.gitVersion, 'v1.33.13');
  const ready = await cp.kubectl(['get', '--raw', '/readyz']);
  assert.equal(ready.stdout.trim(), 'ok');
  const nodes = JSON.parse((await cp.kubectl(['get', 'nodes', '-o', 'json'])).stdout);
  const harness = nodes.items.find((n: { metadata: { name: string } }) => n.metadata.name === 'harness-node');
  assert.equal(harness.status.allocatable['nvidia.com/gpu'], '4');
  assert.equal(harness.status.conditions.find((c: { type: string }) => c.type === 'Ready').status, 'True');
  assert.ok(!(harness.spec.taints ?? []).some((t: { key: string }) => t.key === 'node.kubernetes.io/not-ready'));
});

test('a Job runs on the harness node and the Job controller marks it Complete', { timeout: 60_000 }, async () => {
  await core.createNamespacedSecret({
    namespace: NS,
    body: { metadata: { name: 'hello-secret' }, stringData: { word: 'sesame' } },
  });
  const env = [
    { name: 'MY_POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    { name: 'MY_NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    { name: 'SECRET_WORD', valueFrom: { secretKeyRef: { name: 'hello-secret', key: 'word' } } },
  ];
  const script =
    'echo hi; echo "pod=$MY_POD node=$MY_NODE ns=$POD_NAMESPACE word=$SECRET_WORD extra=$HARNESS_EXTRA kc=$KUBECONFIG"; exit 0';
  await batch.createNamespacedJob({ namespace: NS, body: job('hello', ['sh', '-c', script], {}, env) });
  await waitFor('Job hello Complete', 45_000, () => condition('hello', 'Complete'));
  const runs = node.history.filter((h) => h.pod.startsWith('hello-'));
  assert.equal(runs.length, 1, diagnostics());
  const run = runs[0]!;
  assert.equal(run.exitCode, 0);
  assert.match(run.output(), /^hi\n/);
  assert.match(
    run.output(),
    new RegExp(`pod=${run.pod} node=harness-node ns=${NS} word=sesame extra=extra-value kc=/`),
  );
  const pod = await core.readNamespacedPod({ name: run.pod, namespace: NS });
  assert.equal(pod.status?.phase, 'Succeeded');
  assert.equal(pod.spec?.nodeName, 'harness-node');
  assert.equal(pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 0);
  assert.equal(pod.status?.containerStatuses?.[0]?.state?.running, undefined);
  assert.ok(pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'True'));
});

test('a pod killed with SIGKILL fails with 137 and is retried within backoffLimit', { timeout: 90_000 }, async () => {
  await batch.createNamespacedJob({
    namespace: NS,
    body: job('retry', ['sh', '-c', 'sleep 300'], { backoffLimit: 1 }),
  });
  const first = await waitFor('the first retry pod running', 30_000, async () => runningPodOf('retry'));
  assert.ok(node.kill(first, 'SIGKILL'));
  await waitFor('the killed pod Failed with 137', 20_000, async () => {
    const pod = await core.readNamespacedPod({ name: first, namespace: NS });
    const exit = pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode;
    return pod.status?.phase === 'Failed' && exit === 137 ? true : undefined;
  });
  // The Job controller replaces it (after its pod-failure backoff, 10 s).
  const second = await waitFor('a replacement pod running', 45_000, async () => {
    const p = runningPodOf('retry');
    return p && p !== first ? p : undefined;
  });
  assert.ok(node.kill(second, 'SIGKILL'));
  const failed = await waitFor('Job retry Failed', 30_000, () => condition('retry', 'Failed'));
  assert.equal(failed.reason, 'BackoffLimitExceeded');
  assert.deepEqual(
    node.history.filter((h) => h.pod.startsWith('retry-')).map((h) => h.exitCode),
    [137, 137],
  );
});

test('a podFailurePolicy FailJob rule on exit code 3 fails the Job at once', { timeout: 60_000 }, async () => {
  await batch.createNamespacedJob({
    namespace: NS,
    body: job('policy', ['sh', '-c', 'exit 3'], {
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3] } }] },
    }),
  });
  const failed = await waitFor('Job policy Failed', 45_000, () => condition('policy', 'Failed'));
  assert.equal(failed.reason, 'PodFailurePolicy');
  const runs = node.history.filter((h) => h.pod.startsWith('policy-'));
  assert.deepEqual(
    runs.map((h) => h.exitCode),
    [3],
  );
});

test('deleting a Job with Background propagation removes its pods', { timeout: 60_000 }, async () => {
  await batch.createNamespacedJob({ namespace: NS, body: job('doomed', ['sh', '-c', 'sleep 300']) });
  const pod = await waitFor('the doomed pod running', 30_000, async () => runningPodOf('doomed'));
  await batch.deleteNamespacedJob({ name: 'doomed', namespace: NS, propagationPolicy: 'Background' });
  await waitFor('the pods of Job doomed gone', 45_000, async () => {
    const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: 'batch.kubernetes.io/job-name=doomed' });
    return pods.items.length === 0 && !node.running().includes(pod) ? true : undefined;
  });
  const run = node.history.find((h) => h.pod === pod);
  assert.equal(run?.exitCode, 143, 'SIGTERM ended it (graceful deletion)');
});

test('a ServiceAccount kubeconfig is subject to RBAC', { timeout: 60_000 }, async () => {
  const file = await cp.serviceAccountKubeconfig(NS, 'reader');
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  const asReader = kc.makeApiClient(CoreV1Api);
  const code = (err: unknown) => (err instanceof ApiException ? err.code : err);
  await assert.rejects(asReader.listNamespacedPod({ namespace: NS }), (err) => code(err) === 403);
  const target = node.history[0]!.pod; // the hello pod (Succeeded, still there)
  await assert.rejects(asReader.readNamespacedPod({ name: target, namespace: NS }), (err) => code(err) === 403);

  await cp.apply(
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'pod-getter', namespace: NS },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'reader-gets-pods', namespace: NS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-getter' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: NS }],
    },
  );
  // RBAC reads roles from informers: the grant lands within moments.
  const got = await waitFor('get pods allowed', 15_000, () =>
    asReader.readNamespacedPod({ name: target, namespace: NS }),
  );
  assert.equal(got.metadata?.name, target);
  await assert.rejects(asReader.listNamespacedPod({ namespace: NS }), (err) => code(err) === 403);
  const whoami = await cp.kubectl([
    'auth',
    'whoami',
    '--kubeconfig',
    file,
    '-o',
    'jsonpath={.status.userInfo.username}',
  ]);
  assert.equal(whoami.stdout, `system:serviceaccount:${NS}:reader`);
});

test('after compaction and an apiserver restart, the API, node and controllers carry on', {
  timeout: 90_000,
}, async () => {
  // Compacted: every watch (the node's, the controllers') resumes from a resourceVersion that is
  // gone, gets 410 Gone and must list again.
  await cp.compactEtcd();
  await cp.restartApiserver();
  const ready = await cp.kubectl(['get', '--raw', '/readyz']);
  assert.equal(ready.stdout.trim(), 'ok');
  await batch.createNamespacedJob({ namespace: NS, body: job('after-restart', ['sh', '-c', 'exit 0']) });
  await waitFor('Job after-restart Complete', 60_000, () => condition('after-restart', 'Complete'));
});

test('stop() leaves no process behind', { timeout: 60_000 }, async () => {
  const dir = cp.dir;
  const ours = () =>
    execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes(dir));
  assert.ok(ours().length >= 3, 'etcd, kube-apiserver and kube-controller-manager run with the dir in their args');
  await node.stop();
  await cp.stop();
  assert.deepEqual(ours(), []);
  assert.equal(existsSync(dir), false);
  assert.deepEqual(node.running(), []);
});
