// The chart on a real control plane (etcd, kube-apiserver and kube-controller-manager v1.33 of
// test/services/control-plane.ts): `helm install` and `helm upgrade` for real, every object of the
// default and GPU value sets applied with strict field validation, every pod template admitted by
// the apiserver's PodSecurity admission in namespaces that enforce the restricted profile, and the
// chart's ServiceAccounts doing their work (the API creates a Render, the operator process turns it
// into a Job and holds the Lease, a worker reads its Render and patches its status) while being
// refused what their Roles do not grant. No kubelet runs here: pods are admitted, never started.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1Container, V1Deployment, V1Job } from '@kubernetes/client-node';
import yaml from 'js-yaml';
import postgres from 'postgres';
import { KubernetesExecutor } from '../../api/execution/kubernetes-executor.ts';
import { KubeError, loadKubeConfig, RendersClient } from '../../lib/kube/client.ts';
import { renderResourceName } from '../../lib/kube/render-resource.ts';
import { S3ObjectStore } from '../../lib/storage/s3-store.ts';
import { workerJob } from '../../operator/job-spec.ts';
import { type Identity, ROLE_RULES } from '../../operator/rbac.ts';
import { operatorSettings } from '../../operator/settings.ts';
import { type Database, openDatabase } from '../../store/database.ts';
import { logger, newAccount } from '../api/helpers.ts';
import { freePort, tinyMovie } from '../pipeline/harness.ts';
import { insertQueuedRender, testBucket, until } from '../services/cluster-fixture.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { type ServeProcess, spawnFramewright } from '../services/serve-process.ts';
import { CHART, helm, type K8sObject, MONITORING_ON, REPO, resolveEnv, template, VALUE_SETS } from './chart-helpers.ts';

const NS = 'fw-chart';
const RELEASE = 'fw';
const databaseUrl = process.env.TEST_DATABASE_URL;
const s3Endpoint = process.env.TEST_S3_ENDPOINT;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sa = (identity: Identity) => `${RELEASE}-${identity}`;

/** A Pod as a controller would create it from a pod template (what PodSecurity admission judges). */
function podFrom(name: string, namespace: string, template: { metadata?: object; spec?: object }): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...(template.metadata ?? {}), name, namespace },
    spec: template.spec,
  };
}

describe('the chart on a real kube-apiserver', { timeout: 600_000 }, () => {
  let cp: ControlPlane;
  let admin: postgres.Sql;
  let db: Database;
  let dbName: string;
  let clusterDbUrl: string;
  let bucket: string;
  const kubeconfigs = {} as Record<Identity, string>;
  let operator: ServeProcess | undefined;
  let installNotes = '';

  const kubectl = (args: string[], input?: string) => cp.kubectl(args, input);
  const helmKube = (args: string[]) => helm([...args, '--kubeconfig', cp.adminKubeconfig]);
  /** A restricted namespace: PodSecurity admission refuses a pod that is not restricted, warns on templates. */
  const restrictedNamespace = async (name: string) => {
    await kubectl(['create', 'namespace', name]).catch((err: Error) => {
      if (!/AlreadyExists/.test(err.message)) throw err;
    });
    await kubectl([
      'label',
      '--overwrite',
      'namespace',
      name,
      'pod-security.kubernetes.io/enforce=restricted',
      'pod-security.kubernetes.io/enforce-version=latest',
      'pod-security.kubernetes.io/warn=restricted',
    ]);
  };
  /** kubectl apply of a List with strict field validation; returns kubectl's warnings (stderr). */
  const apply = async (items: object[], ...flags: string[]) =>
    (
      await kubectl(
        ['apply', '--validate=strict', ...flags, '-f', '-'],
        JSON.stringify({ apiVersion: 'v1', kind: 'List', items }),
      )
    ).stderr;

  before(async () => {
    assert.ok(databaseUrl, 'TEST_DATABASE_URL is set by scripts/test.sh');
    assert.ok(s3Endpoint, 'TEST_S3_ENDPOINT is set by scripts/test.sh');
    dbName = `fw_chart_${randomBytes(4).toString('hex')}`;
    admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    clusterDbUrl = databaseUrl.replace(/\/[^/]*$/, `/${dbName}`);
    db = await openDatabase({ databaseUrl: clusterDbUrl, dataDir: '.', logger, max: 2 });
    bucket = (await testBucket(s3Endpoint, 'fw-chart')).bucket;

    cp = await startControlPlane({ namespace: NS });
    await restrictedNamespace(NS);
    // The no-GPU set as a user installs it, with this test's database and bucket; the signing
    // secret left to the chart (generated, then kept across upgrades).
    const install = await helmKube([
      'install',
      RELEASE,
      CHART,
      '--namespace',
      NS,
      ...VALUE_SETS['no-gpu'].flatMap((f) => ['-f', f]),
      '--set',
      `secrets.inline.databaseUrl=${clusterDbUrl}`,
      '--set',
      'secrets.inline.s3AccessKeyId=test',
      '--set',
      'secrets.inline.s3SecretAccessKey=test',
      '--set',
      'secrets.inline.signingSecret=',
      '--set',
      `s3.bucket=${bucket}`,
      '--set',
      `s3.endpoint=${s3Endpoint}`,
    ]);
    assert.equal(install.code, 0, `helm install: ${install.stderr}`);
    installNotes = install.stdout;
    for (const id of ['api', 'operator', 'worker'] as const) {
      kubeconfigs[id] = await cp.serviceAccountKubeconfig(NS, sa(id));
    }
  });

  after(async () => {
    if (operator && operator.child.exitCode === null) {
      const exited = new Promise((resolve) => operator?.child.once('exit', resolve));
      operator.child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000).then(() => operator?.child.kill('SIGKILL'))]);
    }
    await db?.close();
    await cp?.stop();
    if (admin) {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  });

  it('helm install creates every object and prints how to get the first API key and render', async () => {
    const list = await helmKube(['list', '-n', NS, '-o', 'json']);
    const releases = JSON.parse(list.stdout) as { name: string; status: string; app_version: string }[];
    assert.deepEqual(
      releases.map((r) => [r.name, r.status, r.app_version]),
      [[RELEASE, 'deployed', '0.1.0']],
    );
    assert.match(installNotes, /kubectl -n fw-chart exec deploy\/fw-api -- framewright accounts create --plan pro/);
    assert.match(installNotes, /POST "\$FRAMEWRIGHT_URL\/v1\/renders"/);
    assert.match(installNotes, /port-forward svc\/fw-api 8080:80/);
    for (const [kind, name] of [
      ['deployment', 'fw-api'],
      ['deployment', 'fw-operator'],
      ['service', 'fw-api'],
      ['service', 'fw-operator-metrics'],
      ['configmap', 'fw-worker-env'],
      ['secret', 'fw'],
      ['secret', 'fw-worker'],
      ['poddisruptionbudget', 'fw-operator'],
      ['crd', 'renders.framewright.dev'],
    ]) {
      await kubectl(['get', '-n', NS, kind ?? '', name ?? '']);
    }
    await kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/renders.framewright.dev']);
  });

  it('helm upgrade keeps the generated signing secret and upgrades the CRD it owns', async () => {
    const secret = async () =>
      JSON.parse((await kubectl(['get', '-n', NS, 'secret', RELEASE, '-o', 'json'])).stdout).data.SIGNING_SECRET;
    const before = await secret();
    const upgrade = await helmKube(['upgrade', RELEASE, CHART, '-n', NS, '--reuse-values', '--set', 'api.replicas=2']);
    assert.equal(upgrade.code, 0, upgrade.stderr);
    assert.equal(await secret(), before, 'lookup keeps the generated SIGNING_SECRET');
    assert.ok(Buffer.from(before, 'base64').length >= 32);
    const crd = JSON.parse((await kubectl(['get', 'crd', 'renders.framewright.dev', '-o', 'json'])).stdout);
    assert.equal(crd.metadata.annotations['meta.helm.sh/release-name'], RELEASE, 'the release owns (and upgrades) it');
    assert.equal(crd.metadata.annotations['helm.sh/resource-policy'], 'keep');
  });

  it('the namespace enforces the restricted profile: a pod without the settings is refused', async () => {
    const bare = podFrom('bare', NS, { spec: { containers: [{ name: 'c', image: 'framewright:0.1.0' }] } });
    await assert.rejects(apply([bare], '--dry-run=server'), /violates PodSecurity "restricted:latest"/);
  });

  for (const set of ['default', 'gpu'] as const) {
    it(`every object of the ${set} value set is accepted; its pods pass restricted PodSecurity admission`, async () => {
      const ns = `fw-${set}`;
      await restrictedNamespace(ns);
      const { objects } = await template(set, { namespace: ns });
      // Everything, the CRD included, through the apiserver's validation without persisting...
      await apply(objects, '--dry-run=server');
      // ...then for real (the CRD is the installed release's), with PodSecurity's warnings on templates.
      const warnings = await apply(objects.filter((o) => o.kind !== 'CustomResourceDefinition'));
      assert.doesNotMatch(warnings, /PodSecurity/, warnings);
      const deployments = objects.filter((o) => o.kind === 'Deployment') as unknown as V1Deployment[];
      assert.equal(deployments.length, 2);
      // No kubelet and no ReplicaSet controller here: the pods a ReplicaSet would create, admitted
      // (dry run: PodSecurity, ServiceAccount and every other admission plugin) in the restricted namespace.
      await apply(
        deployments.map((d) => podFrom(`${d.metadata?.name}-x`, ns, d.spec?.template ?? {})),
        '--dry-run=server',
      );
    });
  }

  it('ServiceMonitor, PrometheusRule and the dashboard ConfigMap are accepted (monitoring CRDs of the fixture)', async () => {
    // No Prometheus Operator here: its two CRDs, cut down to the fields the chart writes, from a fixture.
    await kubectl(['apply', '-f', path.join(REPO, 'test/chart/fixtures/monitoring-crds.yaml')]);
    await kubectl([
      'wait',
      '--for=condition=Established',
      '--timeout=60s',
      'crd/servicemonitors.monitoring.coreos.com',
      'crd/prometheusrules.monitoring.coreos.com',
    ]);
    const { objects } = await template('default', { extra: MONITORING_ON });
    const monitoring = objects.filter(
      (o) => ['ServiceMonitor', 'PrometheusRule', 'ConfigMap'].includes(o.kind) && o.metadata.name !== 'fw-worker-env',
    );
    assert.equal(monitoring.length, 3);
    await apply(monitoring);
  });

  /** The worker Job that the installed operator's settings (its Deployment's env) make for a Render. */
  const workerJobOfInstalledOperator = async () => {
    const deploy = JSON.parse((await kubectl(['get', '-n', NS, 'deploy', 'fw-operator', '-o', 'json'])).stdout);
    const env = resolveEnv(deploy.spec.template.spec.containers[0] as V1Container, {
      fields: { 'metadata.name': 'op' },
      secrets: { DATABASE_URL: clusterDbUrl },
    });
    return workerJob(
      { metadata: { name: 'rnd-check', uid: 'u' }, spec: { renderId: 'rnd_check', accountId: 'acc_x' } },
      operatorSettings(env).job,
    );
  };

  it('the worker Job built by operator/job-spec.ts from the chart settings is accepted', async () => {
    const job = await workerJobOfInstalledOperator();
    const { ownerReferences: _, ...metadata } = job.metadata ?? {};
    await apply([{ ...job, metadata: { ...metadata, namespace: NS } }], '--dry-run=server');
  });

  it('the worker pods the operator asks for pass restricted PodSecurity admission', async () => {
    const job = await workerJobOfInstalledOperator();
    await apply([podFrom('rnd-check-pod', NS, job.spec?.template ?? {})], '--dry-run=server');
  });

  it('each ServiceAccount may do what its Role grants and nothing more (kubectl auth can-i --as)', async () => {
    const can = async (identity: Identity, verb: string, resource: string, subresource?: string) => {
      const args = ['auth', 'can-i', verb, resource, '-n', NS, `--as=system:serviceaccount:${NS}:${sa(identity)}`];
      if (subresource) args.push(`--subresource=${subresource}`);
      return kubectl(args).then(
        (r) => r.stdout.trim(),
        (err: Error & { stdout?: string }) => (err.stdout ?? '').trim() || err.message,
      );
    };
    for (const identity of ['api', 'operator', 'worker'] as const) {
      for (const rule of ROLE_RULES[identity]) {
        for (const res of rule.resources) {
          const [resource, sub] = res.split('/');
          const qualified = rule.apiGroups[0] ? `${resource}.${rule.apiGroups[0]}` : (resource ?? '');
          for (const verb of rule.verbs) {
            assert.equal(await can(identity, verb, qualified, sub), 'yes', `${identity} ${verb} ${res}`);
          }
        }
      }
    }
    const refused: [Identity, string, string, string?][] = [
      ['worker', 'list', 'renders.framewright.dev'],
      ['worker', 'patch', 'renders.framewright.dev'],
      ['worker', 'create', 'jobs.batch'],
      ['worker', 'get', 'secrets'],
      ['worker', 'get', 'configmaps'],
      // It deletes the Render of a render cancelled through it (ROLE_RULES), never a Job, nor changes a spec.
      ['api', 'delete', 'jobs.batch'],
      ['api', 'patch', 'renders.framewright.dev'],
      ['api', 'patch', 'renders.framewright.dev', 'status'],
      ['api', 'get', 'jobs.batch'],
      ['api', 'get', 'secrets'],
      ['operator', 'create', 'renders.framewright.dev'],
      ['operator', 'patch', 'renders.framewright.dev'],
      ['operator', 'get', 'secrets'],
      ['operator', 'get', 'pods'],
      ['operator', 'delete', 'leases.coordination.k8s.io'],
      ['operator', 'list', 'namespaces'],
    ];
    for (const [identity, verb, resource, sub] of refused) {
      assert.equal(await can(identity, verb, resource, sub), 'no', `${identity} ${verb} ${resource} ${sub ?? ''}`);
    }
  });

  it('with the chart identities: the API creates a Render, the operator makes its Job and leads, the worker reports', async () => {
    // The API's part, as after gating: the movie to the bucket, the Render to the apiserver.
    const { accountId, keyId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const queued = await insertQueuedRender(db.sql, { accountId, keyId, movie: tinyMovie() });
    const executor = new KubernetesExecutor({
      db,
      objects: new S3ObjectStore({
        bucket,
        region: 'us-east-1',
        endpoint: s3Endpoint ?? '',
        forcePathStyle: true,
        accessKeyId: 'test',
        secretAccessKey: 'test',
      }),
      renders: new RendersClient(loadKubeConfig({ KUBECONFIG: kubeconfigs.api }), NS),
      namespace: NS,
      logger,
    });
    await executor.ensureRender(queued);
    const name = renderResourceName(queued.id);

    // The operator as its Deployment runs it: the installed env, the installed Secret, its token.
    const deploy = JSON.parse((await kubectl(['get', '-n', NS, 'deploy', 'fw-operator', '-o', 'json'])).stdout);
    const secret = JSON.parse((await kubectl(['get', '-n', NS, 'secret', RELEASE, '-o', 'json'])).stdout);
    const secrets = Object.fromEntries(
      Object.entries(secret.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
    );
    const env = resolveEnv(deploy.spec.template.spec.containers[0] as V1Container, {
      fields: { 'metadata.name': 'fw-operator-7d9f-abcde' },
      secrets,
    });
    assert.equal(env.DATABASE_URL, clusterDbUrl);
    // A pod's port 9090 is its own; here a free one, beside other test processes.
    const metricsPort = await freePort();
    operator = spawnFramewright(['operator'], {
      ...env,
      OPERATOR_METRICS_PORT: String(metricsPort),
      DATA_DIR: path.join(cp.dir, 'operator-data'),
      KUBECONFIG: kubeconfigs.operator,
    });
    const job = await until(
      'the operator to create the Job',
      async () => {
        if (operator?.child.exitCode !== null) throw new Error(`operator exited:\n${operator?.log()}`);
        const r = await kubectl(['get', '-n', NS, 'job', name, '-o', 'json']);
        return JSON.parse(r.stdout) as V1Job;
      },
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${operator?.log().slice(-4000)}`);
    });
    const pod = job.spec?.template.spec;
    assert.equal(pod?.serviceAccountName, 'fw-worker');
    assert.equal(pod?.containers[0]?.image, 'framewright-worker:0.1.0');
    assert.deepEqual(pod?.containers[0]?.envFrom, [
      { configMapRef: { name: 'fw-worker-env' } },
      { secretRef: { name: 'fw-worker' } },
    ]);
    assert.equal(pod?.containers[0]?.resources?.limits?.['nvidia.com/gpu'], undefined, 'the no-GPU set');
    // The chart's probes: startup and liveness on /healthz, readiness on /readyz, of port `metrics`.
    for (const probe of ['/healthz', '/readyz', '/metrics']) {
      const res = await until(`the operator's ${probe}`, async () => {
        const r = await fetch(`http://127.0.0.1:${metricsPort}${probe}`);
        return r.status === 200 ? r : undefined;
      });
      assert.equal(res.status, 200, probe);
    }
    const lease = JSON.parse((await kubectl(['get', '-n', NS, 'lease', 'framewright-operator', '-o', 'json'])).stdout);
    assert.equal(lease.spec.holderIdentity, 'fw-operator-7d9f-abcde', 'POD_NAME holds the Lease');

    // The worker's part, with its token: read its Render, report on its status.
    const asWorker = new RendersClient(loadKubeConfig({ KUBECONFIG: kubeconfigs.worker }), NS);
    const got = await asWorker.get(name);
    assert.equal(got.spec.renderId, queued.id);
    const patched = await asWorker.patchStatus(name, { progress: 7 });
    assert.equal(patched.status?.progress, 7);
    // ...and refused everything else, by the real apiserver.
    await assert.rejects(asWorker.list(), (err: unknown) => err instanceof KubeError && err.code === 403);
    const refused = async (identity: Identity, ...args: string[]) =>
      assert.rejects(kubectl(['--kubeconfig', kubeconfigs[identity], '-n', NS, ...args]), /Forbidden|forbidden/);
    await refused('worker', 'get', 'secrets');
    await refused('worker', 'create', 'job', 'x', '--image=framewright:0.1.0');
    await refused('worker', 'delete', 'render', name);
    // The API deletes a Render only to cancel it (not this one): never a Job, nor reads Jobs.
    await refused('api', 'delete', 'job', 'x');
    await refused('api', 'get', 'jobs');
    await refused('operator', 'get', 'secrets');
  });

  it('helm uninstall removes the release and keeps the CRD (and so every Render)', async () => {
    if (operator && operator.child.exitCode === null) {
      const exited = new Promise((resolve) => operator?.child.once('exit', resolve));
      operator.child.kill('SIGTERM');
      await exited;
    }
    const r = await helmKube(['uninstall', RELEASE, '-n', NS]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /resource-policy|kept|release "fw" uninstalled/);
    await kubectl(['get', 'crd', 'renders.framewright.dev']);
    await assert.rejects(kubectl(['get', '-n', NS, 'deploy', 'fw-api']), /NotFound/);
    const left = yaml.load((await kubectl(['get', '-n', NS, 'renders', '-o', 'yaml'])).stdout) as {
      items: K8sObject[];
    };
    assert.ok(left.items.length >= 1, 'the Renders stay');
  });
});
