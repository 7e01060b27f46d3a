import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_CATALOG } from '../lib/errors.ts';
import { FINAL_EXIT_CODES, STOPPED_EXIT, workerExitCode } from '../lib/worker-exit.ts';
import { activeDeadlineSeconds, workerJob } from './job-spec.ts';
import { operatorSettings } from './settings.ts';

const render = {
  metadata: { name: 'rnd-0123456789abcdefghjkmnpqrs', uid: 'uid-1' },
  spec: { renderId: 'rnd_0123456789abcdefghjkmnpqrs', accountId: 'acc_x', estimatedDurationSec: 30 },
};

describe('the worker Job of a Render', () => {
  it('defaults: one GPU, owned by the Render, retried on crashes only, deadline from the length', () => {
    const job = workerJob(render, operatorSettings({ KUBE_NAMESPACE: 'fw', WORKER_IMAGE: 'reg/fw:1' }).job);
    assert.equal(job.metadata?.name, render.metadata.name);
    assert.deepEqual(job.metadata?.ownerReferences, [
      {
        apiVersion: 'framewright.dev/v1alpha1',
        kind: 'Render',
        name: render.metadata.name,
        uid: 'uid-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.equal(job.spec?.backoffLimit, 1);
    assert.equal(job.spec?.activeDeadlineSeconds, 2 * (120 + 300));
    assert.equal(job.spec?.ttlSecondsAfterFinished, undefined, 'set only once the outcome is in Postgres');
    const pod = job.spec?.template.spec;
    const c = pod?.containers[0];
    assert.equal(pod?.restartPolicy, 'Never');
    assert.equal(pod?.serviceAccountName, 'framewright-worker');
    // Arguments to the image's entrypoint (tini, then framewright): no command of its own.
    assert.equal(c?.command, undefined);
    assert.deepEqual(c?.args, ['worker', '--render', render.metadata.name]);
    assert.equal(c?.image, 'reg/fw:1');
    assert.deepEqual(c?.resources?.limits, { 'nvidia.com/gpu': '1' });
    assert.match(c?.env?.find((e) => e.name === 'NVIDIA_DRIVER_CAPABILITIES')?.value ?? '', /video.*graphics/);
    // Given a GPU, the pod refuses to draw on a software renderer (worker/draw/backend/egl.ts).
    assert.equal(c?.env?.find((e) => e.name === 'DRAWING_DEVICE')?.value, 'gpu');
    const rules = job.spec?.podFailurePolicy?.rules ?? [];
    assert.deepEqual(rules[0], { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    assert.equal(rules[1]?.action, 'FailJob');
    assert.deepEqual(rules[1]?.onExitCodes?.values, [...FINAL_EXIT_CODES]);
    // A pod the kubelet stopped (kubectl delete pod) exits 143: the Job runs it again.
    assert.ok(!FINAL_EXIT_CODES.includes(STOPPED_EXIT));
  });

  it('settings: no GPU, node selector, tolerations, classes, resources, env sources, Kueue', () => {
    const s = operatorSettings({
      WORKER_GPUS: '0',
      WORKER_NODE_SELECTOR: '{"pool":"render"}',
      WORKER_TOLERATIONS: '[{"key":"gpu","operator":"Exists","effect":"NoSchedule"}]',
      WORKER_RUNTIME_CLASS: 'nvidia',
      WORKER_PRIORITY_CLASS: 'batch-low',
      WORKER_RESOURCES: '{"requests":{"cpu":"2","memory":"4Gi"},"limits":{"memory":"8Gi"}}',
      WORKER_ENV_SECRET: 'fw-s3',
      WORKER_ENV_CONFIGMAP: 'fw-worker',
      KUEUE_QUEUE_NAME: 'renders',
      RENDER_MAX_ATTEMPTS: '3',
    }).job;
    const job = workerJob(render, s);
    const pod = job.spec?.template.spec;
    assert.equal(job.spec?.backoffLimit, 2);
    assert.equal(job.metadata?.labels?.['kueue.x-k8s.io/queue-name'], 'renders');
    assert.deepEqual(pod?.nodeSelector, { pool: 'render' });
    assert.deepEqual(pod?.tolerations, [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }]);
    assert.equal(pod?.runtimeClassName, 'nvidia');
    assert.equal(pod?.priorityClassName, 'batch-low');
    assert.deepEqual(pod?.containers[0]?.resources, {
      requests: { cpu: '2', memory: '4Gi' },
      limits: { memory: '8Gi' },
    });
    assert.deepEqual(pod?.containers[0]?.envFrom, [
      { configMapRef: { name: 'fw-worker' } },
      { secretRef: { name: 'fw-s3' } },
    ]);
  });

  it('drawing: a GPU pod fails rather than draw on the CPU, unless software drawing is allowed; a CPU pod draws on what it finds', () => {
    const device = (env: NodeJS.ProcessEnv) =>
      workerJob(render, operatorSettings(env).job).spec?.template.spec?.containers[0]?.env?.find(
        (e) => e.name === 'DRAWING_DEVICE',
      )?.value;
    assert.equal(device({ WORKER_GPUS: '1' }), 'gpu');
    assert.equal(device({ WORKER_GPUS: '1', WORKER_ALLOW_SOFTWARE_DRAWING: 'true' }), undefined);
    assert.equal(device({ WORKER_GPUS: '0' }), undefined);
    assert.throws(() => operatorSettings({ WORKER_ALLOW_SOFTWARE_DRAWING: 'yes' }), /WORKER_ALLOW_SOFTWARE_DRAWING/);
  });

  it('a bad setting names its variable', () => {
    assert.throws(() => operatorSettings({ WORKER_TOLERATIONS: '{"not":"a list"}' }), /WORKER_TOLERATIONS/);
    assert.throws(() => operatorSettings({ WORKER_NODE_SELECTOR: 'pool=render' }), /WORKER_NODE_SELECTOR must be JSON/);
    assert.throws(() => operatorSettings({ WORKER_GPUS: 'many' }), /WORKER_GPUS/);
  });

  it('deadline: two minutes plus ten times the length per attempt, capped at a day', () => {
    for (const [duration, attempts, want] of [
      [0, 1, 120],
      [60, 2, 1440],
      [undefined, 1, 720],
      [100_000, 2, 86_400],
    ] as const) {
      assert.equal(activeDeadlineSeconds(duration, attempts), want, `${duration} s x ${attempts}`);
    }
  });

  it('exit codes: a reported failure exits with its catalogue status and is final; INTERNAL is retried', () => {
    assert.equal(workerExitCode('ASSET_UNREACHABLE'), ERROR_CATALOG.ASSET_UNREACHABLE.exit);
    assert.ok(FINAL_EXIT_CODES.includes(ERROR_CATALOG.ASSET_UNREACHABLE.exit));
    assert.ok(FINAL_EXIT_CODES.includes(ERROR_CATALOG.SCHEMA_INVALID.exit));
    assert.equal(workerExitCode('INTERNAL'), 1);
    for (const retried of [0, 1, 137, 143, ERROR_CATALOG.INTERNAL.exit]) assert.ok(!FINAL_EXIT_CODES.includes(retried));
  });
});

describe('the Jobs of a render spread over pods', () => {
  const settings = operatorSettings({ KUBE_NAMESPACE: 'fw', WORKER_IMAGE: 'reg/fw:1' }).job;
  const name = render.metadata.name;
  it('prepare: one pod with the segment budget, owned by the Render, the whole deadline', () => {
    const job = workerJob(render, settings, { stage: 'prepare', maxSegments: 6 });
    assert.equal(job.metadata?.name, `${name}-prepare`);
    assert.equal(job.metadata?.labels?.['framewright.dev/stage'], 'prepare');
    assert.equal(job.metadata?.labels?.['framewright.dev/render'], name);
    assert.equal(job.metadata?.ownerReferences?.[0]?.name, name);
    assert.deepEqual(job.spec?.template.spec?.containers[0]?.args, [
      'worker',
      '--render',
      name,
      '--step',
      'prepare',
      '--segments',
      '6',
    ]);
    assert.equal(job.spec?.completions, 1);
    assert.equal(job.spec?.backoffLimit, 1);
  });
  it('segments: Indexed, one pod per segment at once, each index retried alone, a bad input fails it all', () => {
    const job = workerJob(render, settings, { stage: 'segments', count: 3 });
    assert.equal(job.metadata?.name, `${name}-segments`);
    assert.equal(job.spec?.completionMode, 'Indexed');
    assert.equal(job.spec?.completions, 3);
    assert.equal(job.spec?.parallelism, 3);
    assert.equal(job.spec?.backoffLimitPerIndex, 1);
    assert.equal(job.spec?.maxFailedIndexes, 0);
    assert.equal(job.spec?.backoffLimit, undefined, 'the per-index limit counts instead');
    // A third of the movie each: (120 + 10 x 10 s) x 2 attempts.
    assert.equal(job.spec?.activeDeadlineSeconds, 2 * (120 + 100));
    assert.equal(job.spec?.podFailurePolicy?.rules[1]?.action, 'FailJob');
    assert.deepEqual(job.spec?.template.spec?.containers[0]?.resources?.limits, { 'nvidia.com/gpu': '1' });
    assert.deepEqual(job.spec?.template.spec?.containers[0]?.args?.slice(-2), ['--step', 'segments']);
  });
  it('join: one pod that claims no GPU (it copies streams)', () => {
    const job = workerJob(render, settings, { stage: 'join' });
    assert.equal(job.metadata?.name, `${name}-join`);
    assert.equal(job.spec?.template.spec?.containers[0]?.resources?.limits?.['nvidia.com/gpu'], undefined);
    assert.deepEqual(job.spec?.template.spec?.containers[0]?.args?.slice(-2), ['--step', 'join']);
  });
});
