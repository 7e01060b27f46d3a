// The Helm chart (charts/framewright) without a cluster: `helm lint --strict`, `helm template` of
// the default, GPU and no-GPU value sets, values.schema.json, the Roles against operator/rbac.ts,
// the CRD against crds/, the restricted Pod Security settings, and the environment the chart gives
// each process read back through the product's own parsers (lib/config.ts, operator/settings.ts,
// operator/job-spec.ts). test/chart/cluster.test.ts applies the same objects to a real apiserver.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { workerJob } from '../../operator/job-spec.ts';
import { ROLE_RULES } from '../../operator/rbac.ts';
import { operatorSettings } from '../../operator/settings.ts';
import {
  CHART,
  container,
  find,
  helm,
  type K8sObject,
  MONITORING_FILES,
  MONITORING_ON,
  podSpecOf,
  podSpecs,
  REPO,
  resolveEnv,
  restrictedProblems,
  template,
  VALUE_SETS,
  type ValueSet,
} from './chart-helpers.ts';

const SETS = Object.keys(VALUE_SETS) as ValueSet[];
const LABELS = [
  'helm.sh/chart',
  'app.kubernetes.io/name',
  'app.kubernetes.io/instance',
  'app.kubernetes.io/version',
  'app.kubernetes.io/component',
  'app.kubernetes.io/part-of',
  'app.kubernetes.io/managed-by',
];
const render = { metadata: { name: 'rnd-01', uid: 'uid-1' }, spec: { renderId: 'rnd_01', accountId: 'acc_01' } };

describe('charts/framewright', { timeout: 300_000 }, () => {
  for (const set of SETS) {
    it(`helm lint --strict passes (${set} values)`, async () => {
      const r = await helm(['lint', '--strict', CHART, ...VALUE_SETS[set].flatMap((f) => ['-f', f])]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
    });
  }

  for (const set of SETS) {
    it(`helm template renders labelled, uniquely named objects of the expected kinds (${set} values)`, async () => {
      const { objects } = await template(set);
      const ids = objects.map((o) => `${o.kind}/${o.metadata.name}`);
      assert.equal(new Set(ids).size, ids.length, `duplicates in ${ids.join(', ')}`);
      for (const o of objects) {
        for (const l of LABELS) assert.ok(o.metadata.labels?.[l], `${o.kind}/${o.metadata.name} lacks the label ${l}`);
        assert.equal(o.metadata.labels?.['app.kubernetes.io/version'], '0.1.0');
        if (o.kind !== 'CustomResourceDefinition') assert.equal(o.metadata.namespace, 'fw-chart', o.metadata.name);
      }
      for (const want of [
        'Deployment/fw-api',
        'Deployment/fw-operator',
        'Service/fw-api',
        'Service/fw-operator-metrics',
        'ConfigMap/fw-worker-env',
        'CustomResourceDefinition/renders.framewright.dev',
        'PodDisruptionBudget/fw-operator',
        ...['api', 'operator', 'worker'].flatMap((i) => [
          `ServiceAccount/fw-${i}`,
          `Role/fw-${i}`,
          `RoleBinding/fw-${i}`,
        ]),
      ]) {
        assert.ok(ids.includes(want), `${want} missing from ${ids.join(', ')}`);
      }
      assert.equal(ids.includes('Ingress/fw-api'), set === 'gpu', 'the Ingress only when enabled');
      assert.equal(ids.includes('PodDisruptionBudget/fw-api'), set !== 'no-gpu');
      assert.ok(!ids.some((i) => /ServiceMonitor|PrometheusRule|dashboard/.test(i)), 'monitoring is off by default');
      // The operator runs two replicas (one leads); both Deployments select exactly their pods.
      const operator = find(objects, 'Deployment', 'fw-operator') as { spec?: { replicas?: number } } & K8sObject;
      assert.equal(operator.spec?.replicas, 2);
    });
  }

  it('each Role has exactly the rules of operator/rbac.ts ROLE_RULES, bound to its ServiceAccount', async () => {
    for (const set of SETS) {
      const { objects } = await template(set);
      for (const identity of ['api', 'operator', 'worker'] as const) {
        const roleObject = find(objects, 'Role', `fw-${identity}`) as K8sObject & { rules: unknown };
        assert.deepEqual(roleObject.rules, JSON.parse(JSON.stringify(ROLE_RULES[identity])), `${set}: ${identity}`);
        const binding = find(objects, 'RoleBinding', `fw-${identity}`) as K8sObject & {
          roleRef: unknown;
          subjects: unknown;
        };
        assert.deepEqual(binding.roleRef, {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'Role',
          name: `fw-${identity}`,
        });
        assert.deepEqual(binding.subjects, [{ kind: 'ServiceAccount', name: `fw-${identity}`, namespace: 'fw-chart' }]);
      }
      assert.equal(objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding').length, 0);
    }
  });

  it("the CRD is the repository's crds/ file, byte for byte, kept on uninstall and upgraded with the release", async () => {
    const source = await readFile(path.join(REPO, 'crds/renders.framewright.dev.yaml'), 'utf8');
    const copy = await readFile(path.join(CHART, 'resources/renders.framewright.dev.yaml'), 'utf8');
    assert.equal(copy, source, 'charts/framewright/resources/ must be a copy of crds/renders.framewright.dev.yaml');
    const { objects } = await template('default');
    const crd = structuredClone(find(objects, 'CustomResourceDefinition', 'renders.framewright.dev'));
    assert.equal(crd.metadata.annotations?.['helm.sh/resource-policy'], 'keep');
    // Without what the chart adds (the keep annotation, the release labels), it is the file.
    const want = yaml.load(source) as K8sObject;
    delete crd.metadata.annotations;
    for (const l of LABELS) if (!want.metadata.labels?.[l]) delete crd.metadata.labels?.[l];
    assert.deepEqual(crd, want);
    const off = await template('default', { extra: ['--set', 'crds.install=false'] });
    assert.ok(!off.objects.some((o) => o.kind === 'CustomResourceDefinition'));
  });

  for (const set of SETS) {
    it(`every pod is restricted, has resources and probes, and mounts an emptyDir /tmp (${set} values)`, async () => {
      const { objects } = await template(set);
      const pods = podSpecs(objects);
      assert.equal(pods.length, 2);
      for (const { owner, spec } of pods) {
        assert.deepEqual(restrictedProblems(spec), [], owner);
        assert.equal(spec.automountServiceAccountToken, true, `${owner} talks to the apiserver`);
        const tmp = spec.volumes?.find((v) => v.name === 'tmp');
        assert.ok(tmp?.emptyDir, `${owner}: emptyDir tmp`);
        for (const c of spec.containers) {
          assert.ok(
            c.volumeMounts?.some((m) => m.name === 'tmp' && m.mountPath === '/tmp'),
            `${owner}/${c.name}`,
          );
          for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe]) assert.ok(probe?.httpGet, owner);
        }
      }
      const api = container(find(objects, 'Deployment', 'fw-api'));
      assert.deepEqual(api.args, ['serve']);
      assert.equal(api.livenessProbe?.httpGet?.path, '/healthz');
      assert.equal(api.readinessProbe?.httpGet?.path, '/readyz');
      assert.deepEqual(
        api.ports?.map((p) => [p.name, p.containerPort]),
        [
          ['http', 8080],
          ['metrics', 9090],
        ],
      );
      const operator = container(find(objects, 'Deployment', 'fw-operator'));
      assert.deepEqual(operator.args, ['operator']);
      assert.equal(operator.readinessProbe?.httpGet?.port, 'metrics');
      assert.equal(operator.readinessProbe?.httpGet?.path, '/readyz');
      assert.equal(operator.livenessProbe?.httpGet?.path, '/healthz');
    });
  }

  it('PodDisruptionBudgets allow one eviction at a time (maxUnavailable 1): a single replica can be drained', async () => {
    for (const set of SETS) {
      const { objects } = await template(set);
      for (const o of objects.filter((x) => x.kind === 'PodDisruptionBudget')) {
        const spec = (o as K8sObject & { spec: Record<string, unknown> }).spec;
        assert.equal(spec.maxUnavailable, 1, `${set}: ${o.metadata.name} ${JSON.stringify(spec)}`);
        assert.equal('minAvailable' in spec, false, `${set}: ${o.metadata.name} has minAvailable, which blocks drains`);
      }
    }
  });

  it('the API: port 80 -> 8080 and metrics 9090 on its Service, the Ingress routes only http', async () => {
    const { objects } = await template('gpu');
    const svc = find(objects, 'Service', 'fw-api') as K8sObject & { spec: { ports: unknown[] } };
    assert.deepEqual(svc.spec.ports, [
      { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
      { name: 'metrics', port: 9090, targetPort: 'metrics', protocol: 'TCP' },
    ]);
    const ingress = find(objects, 'Ingress', 'fw-api') as K8sObject & { spec: Record<string, unknown> };
    assert.equal(ingress.spec.ingressClassName, 'nginx');
    assert.deepEqual(ingress.spec.tls, [{ secretName: 'framewright-tls', hosts: ['render.example.com'] }]);
    const text = JSON.stringify(ingress.spec.rules);
    assert.match(text, /"port":\{"name":"http"\}/);
    assert.doesNotMatch(text, /metrics|9090/);
  });

  it('the Ingress passes what ingress-nginx would refuse or cut: bodies up to the asset limit, long streams', async () => {
    const annotations = async (extra: string[]) => {
      const { objects } = await template('default', { extra: ['--set', 'api.ingress.enabled=true', ...extra] });
      return (find(objects, 'Ingress', 'fw-api') as K8sObject & { metadata: { annotations?: Record<string, string> } })
        .metadata.annotations;
    };
    // The body limit is the API's own plus 1 MiB: a larger upload gets the API's 413, not the proxy's.
    assert.deepEqual(
      await annotations(['--set', 'limits.assetMaxBytes=94371840', '--set', 'api.ingress.timeoutSeconds=900']),
      {
        'nginx.ingress.kubernetes.io/proxy-body-size': String(94371840 + 1048576),
        'nginx.ingress.kubernetes.io/proxy-read-timeout': '900',
        'nginx.ingress.kubernetes.io/proxy-send-timeout': '900',
        'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off',
      },
    );
    // Annotations of one's own win; the upload annotations can be left out.
    const mine = await annotations([
      '--set',
      'api.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=1g',
    ]);
    assert.equal(mine?.['nginx.ingress.kubernetes.io/proxy-body-size'], '1g');
    assert.equal(mine?.['nginx.ingress.kubernetes.io/proxy-request-buffering'], 'off');
    assert.equal(await annotations(['--set', 'api.ingress.uploadAnnotations=false']), undefined);
  });

  it('container ports are values: each listener, its env variable, its probes and its Service agree', async () => {
    const { objects } = await template('default', {
      extra: [
        '--set',
        'api.containerPorts.http=8000',
        '--set',
        'api.containerPorts.metrics=9100',
        '--set',
        'operator.containerPorts.metrics=9200',
      ],
    });
    const ports = (name: string) =>
      (container(find(objects, 'Deployment', name)).ports ?? []).map((p) => [p.name, p.containerPort]);
    const env = (name: string) =>
      new Map((container(find(objects, 'Deployment', name)).env ?? []).map((e) => [e.name, e.value]));
    assert.deepEqual(ports('fw-api'), [
      ['http', 8000],
      ['metrics', 9100],
    ]);
    assert.equal(env('fw-api').get('PORT'), '8000');
    assert.equal(env('fw-api').get('METRICS_PORT'), '9100');
    assert.deepEqual(ports('fw-operator'), [['metrics', 9200]]);
    assert.equal(env('fw-operator').get('OPERATOR_METRICS_PORT'), '9200');
    // Probes and Services name the port, so they follow it.
    for (const name of ['fw-api', 'fw-operator']) {
      const c = container(find(objects, 'Deployment', name));
      for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) {
        assert.equal(typeof probe?.httpGet?.port, 'string', `${name}: a probe names its port`);
      }
    }
    const svc = (name: string) =>
      (find(objects, 'Service', name) as K8sObject & { spec: { ports: unknown[] } }).spec.ports;
    assert.deepEqual(svc('fw-api'), [
      { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
      { name: 'metrics', port: 9100, targetPort: 'metrics', protocol: 'TCP' },
    ]);
    assert.deepEqual(svc('fw-operator-metrics'), [
      { name: 'metrics', port: 9200, targetPort: 'metrics', protocol: 'TCP' },
    ]);
    // A privileged port cannot be bound by the non-root container: refused before anything is applied.
    const low = await helm(['template', 'fw', CHART, '--set', 'api.containerPorts.http=80']);
    assert.notEqual(low.code, 0);
    assert.match(low.stderr, /api\.containerPorts\.http: Must be greater than or equal to 1024/);
  });

  for (const set of SETS) {
    it(`the API's and the operator's environment pass the product's own validation (${set} values)`, async () => {
      const { objects } = await template(set);
      const secrets = {
        DATABASE_URL: 'postgres://u:p@db:5432/fw',
        SIGNING_SECRET: 's'.repeat(40),
        REDIS_URL: 'redis://redis:6379',
      };
      const api = resolveEnv(container(find(objects, 'Deployment', 'fw-api')), { secrets });
      const { values } = readEnv(EnvSchema, api);
      assert.equal(values.RENDER_EXECUTOR, 'kubernetes');
      assert.equal(values.KUBE_NAMESPACE, 'fw-chart');
      assert.equal(values.PORT, '8080');
      assert.equal(api.METRICS_PORT, '9090');
      assert.equal(
        values.PUBLIC_BASE_URL,
        set === 'gpu' ? 'https://render.example.com' : 'http://fw-api.fw-chart.svc',
        'publicBaseUrl, else the Ingress host, else the Service',
      );
      if (set === 'gpu') {
        assert.equal(values.PLAN_CONCURRENCY, 'trial=1,pro=12,studio=40');
        assert.equal(values.PLAN_RATE_LIMITS, 'pro=900');
        assert.equal(values.ASSET_MAX_BYTES, '536870912');
        assert.equal(values.S3_BUCKET, 'framewright-renders');
      } else {
        assert.equal(values.PLAN_CONCURRENCY, undefined, 'unset plans keep the product defaults');
      }
      // Secrets only by reference; optional keys may be absent from an existingSecret.
      const refs = Object.fromEntries(
        (container(find(objects, 'Deployment', 'fw-api')).env ?? [])
          .filter((e) => e.valueFrom?.secretKeyRef)
          .map((e) => [e.name, e.valueFrom?.secretKeyRef?.optional === true]),
      );
      assert.deepEqual(refs, {
        DATABASE_URL: false,
        SIGNING_SECRET: false,
        REDIS_URL: true,
        S3_ACCESS_KEY_ID: true,
        S3_SECRET_ACCESS_KEY: true,
        OPENAI_API_KEY: true,
      });

      const operatorContainer = container(find(objects, 'Deployment', 'fw-operator'));
      const op = resolveEnv(operatorContainer, { fields: { 'metadata.name': 'fw-operator-abc' }, secrets });
      readEnv(EnvSchema, op);
      const settings = operatorSettings(op);
      assert.equal(settings.identity, 'fw-operator-abc', 'POD_NAME is the Lease holder identity');
      assert.equal(settings.leaderElection.enabled, true);
      assert.equal(settings.metricsPort, 9090);
      assert.equal(settings.job.namespace, 'fw-chart');
      assert.equal(settings.job.serviceAccount, 'fw-worker');
      assert.equal(settings.job.envConfigMap, 'fw-worker-env');
      assert.equal(settings.job.image, 'framewright-worker:0.1.0');
      assert.deepEqual(settings.job.segments, { maxSegments: 8, minSegmentSec: 60 }, 'operator.segments');
      assert.deepEqual(
        operatorContainer.env?.filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name),
        ['DATABASE_URL'],
        'the operator reads only the database URL from the Secret',
      );
    });
  }

  it('the worker Job the operator makes from the chart: GPUs, placement, Kueue and envFrom per value set', async () => {
    const job = async (set: ValueSet) => {
      const { objects } = await template(set);
      const env = resolveEnv(container(find(objects, 'Deployment', 'fw-operator')), {
        fields: { 'metadata.name': 'op' },
        secrets: { DATABASE_URL: 'postgres://db/fw' },
      });
      return workerJob(render, operatorSettings(env).job);
    };
    const gpu = await job('gpu');
    const pod = gpu.spec?.template.spec;
    const c = pod?.containers[0];
    assert.deepEqual(c?.resources, {
      requests: { cpu: '4', memory: '8Gi', 'nvidia.com/gpu': '1' },
      limits: { memory: '16Gi', 'nvidia.com/gpu': '1' },
    });
    assert.equal(pod?.runtimeClassName, 'nvidia');
    assert.equal(pod?.priorityClassName, 'framewright-render');
    assert.deepEqual(pod?.nodeSelector, { 'nvidia.com/gpu.present': 'true' });
    assert.deepEqual(pod?.tolerations, [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
    assert.equal(gpu.metadata?.labels?.['kueue.x-k8s.io/queue-name'], 'gpu-renders');
    assert.equal(gpu.spec?.backoffLimit, 2, 'renderMaxAttempts 3');
    assert.deepEqual(c?.envFrom, [
      { configMapRef: { name: 'fw-worker-env' } },
      { secretRef: { name: 'framewright-worker-s3' } },
    ]);
    assert.equal(pod?.serviceAccountName, 'fw-worker');

    const cpu = await job('no-gpu');
    const cc = cpu.spec?.template.spec?.containers[0];
    assert.deepEqual(cc?.resources, {
      requests: { cpu: '3', memory: '3Gi' },
      limits: { cpu: '6', memory: '6Gi' },
    });
    assert.equal(cpu.spec?.template.spec?.runtimeClassName, undefined);
    assert.equal(cpu.metadata?.labels?.['kueue.x-k8s.io/queue-name'], undefined);
    assert.deepEqual(cc?.envFrom, [{ configMapRef: { name: 'fw-worker-env' } }, { secretRef: { name: 'fw-worker' } }]);

    const plain = await job('default');
    assert.deepEqual(plain.spec?.template.spec?.containers[0]?.envFrom, [{ configMapRef: { name: 'fw-worker-env' } }]);
  });

  it("the worker's environment: S3 settings, the API's asset links trusted, no database credentials", async () => {
    for (const set of SETS) {
      const { objects } = await template(set);
      const cm = find(objects, 'ConfigMap', 'fw-worker-env') as K8sObject & { data: Record<string, string> };
      const { values } = readEnv(EnvSchema, cm.data); // the worker validates it so at start-up
      const base = set === 'gpu' ? 'https://render.example.com' : 'http://fw-api.fw-chart.svc';
      const extra = set === 'no-gpu' ? ',http://assets.internal.svc/library/' : '';
      assert.equal(values.TRUSTED_URL_PREFIXES, `${base}/v1/assets/${extra}`);
      assert.equal(values.ALLOW_PRIVATE_URLS, 'false');
      for (const k of Object.keys(cm.data)) assert.doesNotMatch(k, /DATABASE|REDIS|SIGNING|SECRET|OPENAI/);
    }
    const { objects } = await template('no-gpu');
    const cm = find(objects, 'ConfigMap', 'fw-worker-env') as K8sObject & { data: Record<string, string> };
    assert.equal(cm.data.S3_ENDPOINT, 'http://minio.storage.svc:9000');
    assert.equal(cm.data.S3_FORCE_PATH_STYLE, 'true');
    assert.equal(cm.data.S3_BUCKET, 'renders');
    // The transcription endpoint of subtitles `from` (worker/cli/config.ts reads both).
    assert.equal(cm.data.TRANSCRIBE_BASE_URL, 'http://whisper.speech.svc:8000/v1');
    assert.equal(cm.data.TRANSCRIBE_MODEL, 'whisper-large-v3');
    const gpuCm = find((await template('gpu')).objects, 'ConfigMap', 'fw-worker-env') as K8sObject & {
      data: Record<string, string>;
    };
    assert.equal(gpuCm.data.TRANSCRIBE_BASE_URL, undefined, "unset: the worker's default");
    assert.equal(gpuCm.data.TRANSCRIBE_MODEL, undefined);
    const workerSecret = find(objects, 'Secret', 'fw-worker') as K8sObject & { data: Record<string, string> };
    assert.deepEqual(Object.keys(workerSecret.data).sort(), ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']);
    assert.equal(cm.data.OPENAI_BASE_URL, undefined, 'no openai.baseUrl: the worker uses OpenAI');
  });

  it('openai-* voices and transcription on the worker pods: openai.baseUrl in their ConfigMap, the key in their Secret (never the main one)', async () => {
    const { objects } = await template('no-gpu', {
      extra: [
        '--set',
        'openai.baseUrl=http://llm.ai.svc:8000/v1',
        '--set',
        'secrets.inline.openaiApiKey=sk-test-worker',
      ],
    });
    const cm = find(objects, 'ConfigMap', 'fw-worker-env') as K8sObject & { data: Record<string, string> };
    assert.equal(cm.data.OPENAI_BASE_URL, 'http://llm.ai.svc:8000/v1');
    const { values } = readEnv(EnvSchema, cm.data);
    assert.equal(values.OPENAI_BASE_URL, 'http://llm.ai.svc:8000/v1');
    const workerSecret = find(objects, 'Secret', 'fw-worker') as K8sObject & { data: Record<string, string> };
    assert.deepEqual(Object.keys(workerSecret.data).sort(), [
      'OPENAI_API_KEY',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
    ]);
    assert.equal(Buffer.from(workerSecret.data.OPENAI_API_KEY ?? '', 'base64').toString(), 'sk-test-worker');
    // The key alone (workload identity for S3) still makes the worker Secret, with the key only.
    const keyOnly = await template('no-gpu', {
      extra: [
        '--set',
        'secrets.inline.s3AccessKeyId=',
        '--set',
        'secrets.inline.s3SecretAccessKey=',
        '--set',
        'secrets.inline.openaiApiKey=sk-test-worker',
      ],
    });
    const keyOnlySecret = find(keyOnly.objects, 'Secret', 'fw-worker') as K8sObject & { data: Record<string, string> };
    assert.deepEqual(Object.keys(keyOnlySecret.data), ['OPENAI_API_KEY']);
  });

  it('Secrets: existingSecret is only referenced; inline values make a chart Secret with a signing secret', async () => {
    const gpu = await template('gpu');
    assert.equal(gpu.objects.filter((o) => o.kind === 'Secret').length, 0, 'existingSecret: the chart creates none');
    for (const d of ['fw-api', 'fw-operator']) {
      const refs = (container(find(gpu.objects, 'Deployment', d)).env ?? []).flatMap((e) =>
        e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.name] : [],
      );
      assert.deepEqual([...new Set(refs)], ['framewright-secrets'], d);
    }
    const inline = await template('no-gpu');
    const secret = find(inline.objects, 'Secret', 'fw') as K8sObject & { data: Record<string, string> };
    const decoded = Object.fromEntries(
      Object.entries(secret.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
    );
    assert.equal(decoded.DATABASE_URL, 'postgres://framewright:framewright@postgres.db.svc:5432/framewright');
    assert.equal(decoded.SIGNING_SECRET, 'a-signing-secret-of-at-least-32-characters');
    assert.equal(decoded.OPENAI_API_KEY, undefined);
    const generated = find((await template('default')).objects, 'Secret', 'fw') as K8sObject & {
      data: Record<string, string>;
    };
    assert.ok(Buffer.from(generated.data.SIGNING_SECRET ?? '', 'base64').length >= 32, 'a generated signing secret');
    // The main Secret (DATABASE_URL) is never every render pod's environment.
    await assert.rejects(
      template('default', {
        extra: ['--set', 'secrets.existingSecret=fw-main', '--set', 'secrets.existingWorkerSecret=fw-main'],
      }),
      /existingWorkerSecret must not be secrets.existingSecret/,
    );
  });

  it('values.schema.json rejects unknown keys and mistyped values, naming them', async () => {
    const cases: [string[], RegExp][] = [
      [['--set', 'api.replicaz=3'], /api: Additional property replicaz is not allowed/],
      [['--set', 'nope=1'], /Additional property nope is not allowed/],
      [['--set', 'worker.gpuz=1'], /worker: Additional property gpuz is not allowed/],
      [['--set', 'worker.gpus=two'], /worker\.gpus: Invalid type\. Expected: integer, given: string/],
      [['--set', 'worker.gpus=-1'], /worker\.gpus: Must be greater than or equal to 0/],
      [['--set', 'logLevel=loud'], /logLevel: logLevel must be one of the following/],
      [['--set', 'worker.image.pullPolicy=Sometimes'], /worker\.image\.pullPolicy must be one of the following/],
      [['--set', 'api.ingress.enabled=yes'], /api\.ingress\.enabled: Invalid type\. Expected: boolean/],
      [['--set', 'plans.concurrency.enterprise=3'], /plans\.concurrency: Additional property enterprise/],
      [['--set-json', 'worker.tolerations=[{"key":"a","operator":"Maybe"}]'], /operator must be one of the following/],
      [['--set', 'secrets.inline.databaseUrl=mysql://x'], /secrets\.inline\.databaseUrl: Does not match pattern/],
      [['--set', 'secrets.inline.signingSecret=short'], /secrets\.inline\.signingSecret/],
    ];
    for (const [flags, message] of cases) {
      const r = await helm(['template', 'fw', CHART, ...flags]);
      assert.notEqual(r.code, 0, `${flags.join(' ')} was accepted`);
      assert.match(r.stderr, message, flags.join(' '));
    }
  });

  it('ServiceMonitor, PrometheusRule and the Grafana dashboard ConfigMap when enabled', async () => {
    const r = await helm(['lint', '--strict', CHART, ...MONITORING_ON]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const { objects } = await template('default', { extra: MONITORING_ON });
    const sm = find(objects, 'ServiceMonitor', 'fw') as K8sObject & { spec: { endpoints: { port: string }[] } };
    assert.deepEqual(
      sm.spec.endpoints.map((e) => e.port),
      ['metrics'],
    );
    const rule = find(objects, 'PrometheusRule', 'fw') as K8sObject & { spec: unknown };
    const groups = yaml.load(await readFile(path.join(CHART, MONITORING_FILES[1] ?? ''), 'utf8'));
    assert.deepEqual(rule.spec, groups, 'the spec is files/prometheus-rules.yaml');
    const cm = find(objects, 'ConfigMap', 'fw-dashboard') as K8sObject & { data: Record<string, string> };
    assert.equal(cm.metadata.labels?.grafana_dashboard, '1');
    assert.deepEqual(
      JSON.parse(cm.data['framewright.json'] ?? ''),
      JSON.parse(await readFile(path.join(CHART, MONITORING_FILES[0] ?? ''), 'utf8')),
    );
  });

  it('the operator Deployment pod template keeps the identity and leader election wiring', async () => {
    const { objects } = await template('default');
    const spec = podSpecOf(find(objects, 'Deployment', 'fw-operator'));
    assert.equal(spec.serviceAccountName, 'fw-operator');
    const env = container(find(objects, 'Deployment', 'fw-operator')).env ?? [];
    assert.deepEqual(env.find((e) => e.name === 'POD_NAME')?.valueFrom, { fieldRef: { fieldPath: 'metadata.name' } });
    assert.equal(env.find((e) => e.name === 'LEADER_ELECTION')?.value, 'true');
    assert.equal(podSpecOf(find(objects, 'Deployment', 'fw-api')).serviceAccountName, 'fw-api');
  });
});
