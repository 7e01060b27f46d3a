import type { V1Job, V1Toleration } from '@kubernetes/client-node';
import { FINAL_EXIT_CODES } from '../lib/worker-exit.ts';
import type { WorkerJobSettings } from './settings.ts';
import { stageJobName } from './stages.ts';

/** The container of a worker pod, named in the podFailurePolicy. */
export const WORKER_CONTAINER = 'render';
export const MANAGED_BY = 'framewright-operator';
export const RENDER_LABEL = 'framewright.dev/render';
/** Which step of the render a Job runs (operator/stages.ts). */
const STAGE_LABEL = 'framewright.dev/stage';

/** The Job of one stage: a segmented render's prepare pod gets its budget, its segments Job the count. */
export type StageJob =
  | { stage: 'single' }
  | { stage: 'prepare'; maxSegments: number }
  | { stage: 'segments'; count: number }
  | { stage: 'join' };

/** What the Job is built from: the Render as the operator sees it. */
export interface RenderRef {
  metadata: { name: string; uid: string };
  spec: { renderId: string; accountId: string; estimatedDurationSec?: number | undefined };
}

/**
 * activeDeadlineSeconds of a render's Job: every attempt gets two minutes (start, assets, speech)
 * plus ten times the movie's length (a CPU-only node renders at about realtime; a GPU node at 6x
 * and more), capped at a day. A Job past it fails with DeadlineExceeded.
 */
export function activeDeadlineSeconds(estimatedDurationSec: number | undefined, maxAttempts: number): number {
  const perAttempt = 120 + 10 * Math.ceil(Math.max(0, estimatedDurationSec ?? 60));
  return Math.min(86_400, perAttempt * maxAttempts);
}

/** The images' non-root user and group (Dockerfile: USER 10001:10001). */
const WORKER_UID = 10001;

/** The worker's arguments for a stage, to the image's entrypoint (`tini -- framewright`). */
function stageArgs(render: string, job: StageJob): string[] {
  const args = ['worker', '--render', render];
  if (job.stage !== 'single') args.push('--step', job.stage);
  if (job.stage === 'prepare') args.push('--segments', String(job.maxSegments));
  return args;
}

/**
 * The batch/v1 Job of one stage of a Render (operator/stages.ts), owned by the Render (deleting
 * the Render deletes its Jobs and their pods), retried on crashes only. `single`, `prepare` and
 * `join` run one pod at a time; `segments` is an Indexed Job with one pod per segment, where a
 * failed pod reruns its own index alone (backoffLimitPerIndex) and a segment that fails for bad
 * input fails the Job at once. The join copies streams and claims no GPU. Pure: the operator
 * creates it as is.
 */
export function workerJob(render: RenderRef, s: WorkerJobSettings, job: StageJob = { stage: 'single' }): V1Job {
  const renderName = render.metadata.name;
  const name = stageJobName(renderName, job.stage);
  const labels: Record<string, string> = {
    'app.kubernetes.io/name': 'framewright',
    'app.kubernetes.io/component': 'worker',
    'app.kubernetes.io/managed-by': MANAGED_BY,
    [RENDER_LABEL]: renderName,
    [STAGE_LABEL]: job.stage,
    ...(s.kueueQueueName ? { 'kueue.x-k8s.io/queue-name': s.kueueQueueName } : {}),
  };
  const drawsOnGpu = s.gpus > 0 && job.stage !== 'join';
  const gpu: Record<string, string> = drawsOnGpu ? { 'nvidia.com/gpu': String(s.gpus) } : {};
  const attempts = Math.max(0, s.maxAttempts - 1);
  const estimated = render.spec.estimatedDurationSec;
  const shape =
    job.stage === 'segments'
      ? {
          completionMode: 'Indexed',
          completions: job.count,
          parallelism: job.count,
          backoffLimitPerIndex: attempts,
          maxFailedIndexes: 0,
          activeDeadlineSeconds: activeDeadlineSeconds(
            estimated === undefined ? undefined : estimated / job.count,
            s.maxAttempts,
          ),
        }
      : {
          completions: 1,
          parallelism: 1,
          // A crash is retried until maxAttempts pods have run; a reported failure ends it at once.
          backoffLimit: attempts,
          activeDeadlineSeconds: activeDeadlineSeconds(estimated, s.maxAttempts),
        };
  const resources = s.resources as { limits?: Record<string, string>; requests?: Record<string, string> };
  const envFrom = [
    ...(s.envConfigMap ? [{ configMapRef: { name: s.envConfigMap } }] : []),
    ...(s.envSecret ? [{ secretRef: { name: s.envSecret } }] : []),
  ];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      labels,
      ownerReferences: [
        {
          apiVersion: 'framewright.dev/v1alpha1',
          kind: 'Render',
          name: renderName,
          uid: render.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      ...shape,
      podFailurePolicy: {
        rules: [
          // A node drained or a pod preempted is nobody's fault: not counted as an attempt.
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          {
            action: 'FailJob',
            onExitCodes: { containerName: WORKER_CONTAINER, operator: 'In', values: [...FINAL_EXIT_CODES] },
          },
        ],
      },
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          serviceAccountName: s.serviceAccount,
          ...(Object.keys(s.nodeSelector).length ? { nodeSelector: s.nodeSelector } : {}),
          ...(s.tolerations.length ? { tolerations: s.tolerations as V1Toleration[] } : {}),
          ...(s.runtimeClassName ? { runtimeClassName: s.runtimeClassName } : {}),
          ...(s.priorityClassName ? { priorityClassName: s.priorityClassName } : {}),
          // The restricted Pod Security profile: a namespace that enforces it admits the pod. The
          // root filesystem is read-only; scratch files, Xvfb's socket and Mesa's cache go to /tmp.
          securityContext: {
            runAsNonRoot: true,
            runAsUser: WORKER_UID,
            runAsGroup: WORKER_UID,
            fsGroup: WORKER_UID,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          volumes: [{ name: 'tmp', emptyDir: {} }],
          containers: [
            {
              name: WORKER_CONTAINER,
              image: s.image,
              imagePullPolicy: s.imagePullPolicy,
              args: stageArgs(renderName, job),
              env: [
                { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                // NVENC needs `video`; drawing needs `graphics` (the driver's EGL library).
                { name: 'NVIDIA_DRIVER_CAPABILITIES', value: 'compute,utility,video,graphics' },
                // A pod given a GPU that finds a software renderer fails its render at once
                // (GPU_DRAWING_UNAVAILABLE) rather than drawing on the CPU unnoticed.
                ...(drawsOnGpu && !s.allowSoftwareDrawing ? [{ name: 'DRAWING_DEVICE', value: 'gpu' }] : []),
                { name: 'XDG_CACHE_HOME', value: '/tmp/.cache' },
              ],
              securityContext: {
                allowPrivilegeEscalation: false,
                capabilities: { drop: ['ALL'] },
                readOnlyRootFilesystem: true,
              },
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
              ...(envFrom.length ? { envFrom } : {}),
              resources: {
                ...resources,
                limits: { ...resources.limits, ...gpu },
                ...(resources.requests || s.gpus > 0 ? { requests: { ...resources.requests, ...gpu } } : {}),
              },
            },
          ],
        },
      },
    },
  };
}
