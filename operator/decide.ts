import type { V1Job } from '@kubernetes/client-node';
import type { ErrorBody } from '../lib/errors.ts';
import type { Render, RenderCondition, RenderStatus } from '../lib/kube/render-resource.ts';
import { renderingProgress } from '../lib/render-progress.ts';
import {
  failedCondition,
  type JobCondition,
  type JobMeaning,
  jobMeaning,
  type ObservedJob,
} from '../store/lifecycle/decisions.ts';
import type { ActivePhase } from '../store/lifecycle/transitions.ts';
import type { RenderStatus as RowStatus } from '../store/types.ts';
import { type StageJob, WORKER_CONTAINER } from './job-spec.ts';
import { type SegmentSettings, STAGES, type Stage, segmentBudget } from './stages.ts';

/**
 * One reconcile pass of a Render, decided without I/O: what the operator observed in, what to
 * do out. The reconciler (operator/reconciler.ts) performs the actions in order and writes the
 * status once. Table tests: operator/decide.test.ts.
 */

/** Condition types of a Render, in metav1.Condition form. */
const CONDITION = { started: 'Started', complete: 'Complete', failed: 'Failed' } as const;

/** The render's row in Postgres, as far as a decision needs it. */
export interface RowView {
  status: RowStatus;
  progress: number;
  durationSec: number | null;
  error: ErrorBody | null;
  updatedAt: Date;
}

export interface Observed {
  /** The Render, or undefined once it is deleted (informer tombstone). */
  render: Render | undefined;
  row: RowView | undefined;
  /** The render's Jobs by stage (operator/stages.ts): `single`, or those of prepare, segments, join. */
  jobs: Partial<Record<Stage, V1Job>>;
  /** How long movies are spread over pods (RENDER_MAX_SEGMENTS, RENDER_SEGMENT_SECONDS). */
  segments?: SegmentSettings | undefined;
  now: Date;
  /**
   * Seconds a finished Render stays in the cluster (RENDER_TTL_SECONDS) before the operator
   * deletes it; its render stays in Postgres and the API. Undefined: kept.
   */
  renderTtlSec?: number | undefined;
  /**
   * Once the current stage's Job has failed: why the kubelet ended its failed pods' worker
   * containers (OOMKilled, Error, ...), which the reconciler reads from the pods.
   */
  terminations?: readonly string[] | undefined;
}

export interface Event {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface Actions {
  /**
   * Remove the Render and with it the Job: it has no row (never had, or it was deleted), or it
   * finished longer than its TTL ago (`expired`).
   */
  deleteRender?: true;
  expired?: true;
  /** Look again after this long (a finished Render's TTL runs out then). */
  requeueAfterMs?: number;
  /** The Render was deleted while the render ran: fail it as cancelled (credits released). */
  cancel?: true;
  /** Create the Job of this stage (the first, or the next once the one before is complete). */
  createJob?: StageJob;
  /** The render is over but these of its Jobs still run (failed elsewhere): stop them. */
  deleteJobs?: string[];
  /** Mirror the worker's progress into Postgres. */
  progress?: { phase: ActivePhase; progress: number; durationSec?: number };
  /** Record the outcome in Postgres (metering, credits, retention, webhook) via the lifecycle. */
  complete?: { durationSec: number; outputKey: string };
  fail?: { code: ErrorBody['code']; message: string; path?: string };
  /** Let these finished Jobs be garbage-collected: the outcome is safely in Postgres. */
  jobTtl?: string[];
  /** The operator's fields of the status to merge, when they differ from what is there. */
  status?: RenderStatus;
  events: Event[];
}

const ACTIVE: ReadonlySet<string> = new Set(['preparing', 'rendering']);

function jobPods(job: V1Job | undefined): number {
  const s = job?.status;
  return (s?.active ?? 0) + (s?.failed ?? 0) + (s?.succeeded ?? 0);
}

/** The stage the render is at: the last of its Jobs that exists (undefined: none yet). */
export function currentStage(jobs: Partial<Record<Stage, V1Job>>): Stage | undefined {
  return STAGES.findLast((s) => jobs[s] !== undefined);
}

/** What a prepare pod leaves for the segments: how many, and the frames they share. */
interface PreparedPlan {
  segments: number;
  totalFrames: number;
}

/**
 * What the Job of a stage means for the render. A whole render and a join finish with the MP4
 * reported; a prepare with its segment plan; a segments Job when every index succeeded (each
 * segment is in the object store). Failures read the same at every stage (jobMeaning).
 */
function stageMeaning(
  stage: Stage,
  job: V1Job,
  render: Render,
  terminations: readonly string[] | undefined,
): JobMeaning | JobMeaning<PreparedPlan> | JobMeaning<true> {
  const observed = { ...observeJob(job, render), terminations };
  if (stage === 'single' || stage === 'join') return jobMeaning(observed);
  const s = render.status ?? {};
  if (stage === 'prepare') {
    const plan =
      s.segments !== undefined && s.totalFrames !== undefined
        ? { segments: s.segments, totalFrames: s.totalFrames }
        : undefined;
    return jobMeaning<PreparedPlan>({ ...observed, reported: { ...observed.reported, output: plan } });
  }
  return jobMeaning<true>({ ...observed, reported: { ...observed.reported, output: true } });
}

/** Frames the segment pods report encoded, all segments together. */
function segmentFramesDone(status: RenderStatus): number {
  const frames = (status.segmentFrames ?? {}) as Record<string, number>;
  return Object.values(frames).reduce((a, b) => a + b, 0);
}

function condition(
  current: RenderCondition[] | undefined,
  type: string,
  status: RenderCondition['status'],
  reason: string,
  message: string,
  generation: number | undefined,
  now: Date,
): RenderCondition {
  const previous = current?.find((c) => c.type === type);
  return {
    type,
    status,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    // The transition time moves only when the status does (metav1.Condition semantics).
    lastTransitionTime:
      previous && previous.status === status ? previous.lastTransitionTime : now.toISOString().replace(/\.\d+Z$/, 'Z'),
    reason,
    message,
  };
}

/** The operator-owned fields of the status that the pass ends with. */
function desiredStatus(
  o: Observed & { render: Render },
  stage: Stage | undefined,
  terminal: RowView | undefined,
  rendering: number | undefined,
): RenderStatus {
  const { render, jobs, now } = o;
  const job = stage ? jobs[stage] : undefined;
  const s = render.status ?? {};
  const gen = render.metadata.generation;
  const conditions: RenderCondition[] = [];
  const jobName = job?.metadata?.name;
  conditions.push(
    condition(
      s.conditions,
      CONDITION.started,
      jobName ? 'True' : 'False',
      jobName ? 'JobCreated' : 'Pending',
      jobName ? `Job ${jobName} runs the render` : 'Waiting for its Job',
      gen,
      now,
    ),
  );
  if (terminal?.status === 'done') {
    conditions.push(condition(s.conditions, CONDITION.complete, 'True', 'Rendered', 'The MP4 is stored', gen, now));
  } else if (terminal?.status === 'failed') {
    const code = terminal.error?.code ?? 'INTERNAL';
    const reason = code
      .toLowerCase()
      .split('_')
      .map((w) => w[0]?.toUpperCase() + w.slice(1))
      .join('');
    conditions.push(condition(s.conditions, CONDITION.failed, 'True', reason, terminal.error?.message ?? '', gen, now));
  }
  const pods = Object.values(jobs).reduce((n, j) => n + jobPods(j), 0);
  const first = jobs.single ?? jobs.prepare;
  const out: RenderStatus = {
    ...(jobName ? { jobName } : {}),
    attempts: Math.max(s.attempts ?? 0, pods),
    ...(first?.status?.startTime ? { startTime: toIso(first.status.startTime) } : {}),
    ...(gen !== undefined ? { observedGeneration: gen } : {}),
    conditions,
  };
  if (!s.phase && !terminal) out.phase = 'queued';
  if (s.segments !== undefined) {
    const finished = terminal?.status === 'done' || stage === 'join';
    const done = finished ? s.segments : Math.min(s.segments, jobs.segments?.status?.succeeded ?? 0);
    out.segmentsReady = `${done}/${s.segments}`;
  }
  // A segmented render's progress is the operator's sum of its segment pods' frames.
  if (rendering !== undefined && !terminal) {
    out.phase = 'rendering';
    out.progress = Math.max(s.progress ?? 0, rendering);
  }
  if (terminal) {
    out.phase = terminal.status as 'done' | 'failed';
    if (terminal.status === 'done') out.progress = 100;
    if (terminal.durationSec !== null) out.durationSec = terminal.durationSec;
    if (terminal.error) {
      out.error = {
        code: terminal.error.code,
        message: terminal.error.message,
        ...(terminal.error.path ? { path: terminal.error.path } : {}),
      };
    }
    out.completionTime = s.completionTime ?? toIso(terminal.updatedAt);
  }
  return out;
}

function toIso(d: Date | string): string {
  return (typeof d === 'string' ? d : d.toISOString()).replace(/\.\d+Z$/, 'Z');
}

const isTerminal = (s: RowStatus) => s === 'done' || s === 'failed';

/** Whether merging `want` into `have` changes anything (the status is written only then). */
function statusChanges(have: RenderStatus | undefined, want: RenderStatus): boolean {
  const h = (have ?? {}) as Record<string, unknown>;
  return Object.entries(want).some(([k, v]) => JSON.stringify(h[k]) !== JSON.stringify(v));
}

export function decide(o: Observed): Actions {
  const { render, row, jobs } = o;
  const events: Event[] = [];
  if (!render) {
    // Deleted: `kubectl delete render` cancels a render that has not finished.
    return row && !isTerminal(row.status) ? { cancel: true, events } : { events };
  }
  if (render.metadata.deletionTimestamp) return { events };
  if (!row) return { deleteRender: true, events };

  const finishedAt = render.status?.completionTime;
  const expiresIn = ttlLeftMs(o, finishedAt);
  if (isTerminal(row.status) && expiresIn !== undefined && expiresIn <= 0) {
    return { deleteRender: true, expired: true, events };
  }
  const actions: Actions = { events };
  const stage = currentStage(jobs);
  const job = stage ? jobs[stage] : undefined;
  const reported = render.status ?? {};
  let terminal: RowView | undefined = isTerminal(row.status) ? row : undefined;
  let rendering: number | undefined;
  if (!terminal) {
    if (!stage || !job) {
      // An output format without frames to split (audio, a still) renders on one pod (spec.singlePod).
      const budget =
        o.segments && !render.spec.singlePod ? segmentBudget(render.spec.estimatedDurationSec, o.segments) : 1;
      actions.createJob = budget > 1 ? { stage: 'prepare', maxSegments: budget } : { stage: 'single' };
    } else {
      const meaning = stageMeaning(stage, job, render, o.terminations);
      if (meaning.state === 'running' && stage === 'segments') {
        rendering = renderingProgress(segmentFramesDone(reported), reported.totalFrames ?? 0);
        if (row.status !== 'rendering' || rendering > row.progress) {
          actions.progress = {
            phase: 'rendering',
            progress: Math.max(row.progress, rendering),
            ...(reported.durationSec !== undefined ? { durationSec: reported.durationSec } : {}),
          };
        }
      } else if (meaning.state === 'running') {
        const phase = reported.phase;
        if (phase && ACTIVE.has(phase)) {
          const progress = reported.progress ?? 0;
          const moved =
            (phase === 'rendering' && row.status !== 'rendering') ||
            (phase === 'preparing' && row.status === 'queued') ||
            progress > row.progress ||
            (reported.durationSec !== undefined && row.durationSec === null);
          if (moved) {
            actions.progress = {
              phase: phase as ActivePhase,
              progress,
              ...(reported.durationSec !== undefined ? { durationSec: reported.durationSec } : {}),
            };
          }
        }
      } else if (meaning.state === 'done' && stage === 'prepare') {
        actions.createJob = { stage: 'segments', count: (meaning.output as PreparedPlan).segments };
      } else if (meaning.state === 'done' && stage === 'segments') {
        actions.createJob = { stage: 'join' };
        rendering = renderingProgress(reported.totalFrames ?? 0, reported.totalFrames ?? 0);
      } else if (meaning.state === 'done') {
        const output = meaning.output as { durationSec: number; outputKey: string };
        actions.complete = output;
        terminal = { ...row, status: 'done', progress: 100, durationSec: output.durationSec, updatedAt: o.now };
        events.push({ type: 'Normal', reason: 'Completed', message: `Rendered ${output.durationSec} s of video` });
      } else if (meaning.state === 'failed') {
        actions.fail = meaning.error;
      }
    }
    if (actions.fail) {
      const e = actions.fail;
      terminal = { ...row, status: 'failed', error: { ...e } as ErrorBody, updatedAt: o.now };
      events.push({ type: 'Warning', reason: 'Failed', message: `${e.code}: ${e.message}` });
    }
  }
  if (terminal) {
    const running = Object.values(jobs).filter((j) => (j.status?.active ?? 0) > 0);
    if (running.length && !actions.fail) actions.deleteJobs = running.map((j) => j.metadata?.name ?? '');
    const collectable = Object.values(jobs).filter(
      (j) => isJobFinished(j) && j.spec?.ttlSecondsAfterFinished === undefined,
    );
    if (collectable.length) actions.jobTtl = collectable.map((j) => j.metadata?.name ?? '');
  }
  const status = desiredStatus({ ...o, render }, stage, terminal, rendering);
  // A pass that creates the first Job writes nothing else: under load a new render's Job comes
  // first, and the pass its arrival makes names it in the status (with the event) a moment later.
  const firstJob = actions.createJob && !stage;
  if (!firstJob && statusChanges(render.status, status)) actions.status = status;
  // Once per Job: the first pass that sees it, before the status names it.
  if (job && render.status?.jobName !== job.metadata?.name && !terminal) {
    const what =
      stage === 'segments' && reported.segments !== undefined
        ? `: ${reported.segments} segments of ${reported.totalFrames} frames`
        : '';
    events.unshift({ type: 'Normal', reason: 'JobCreated', message: `Created Job ${job.metadata?.name}${what}` });
  }
  // A finished Render is looked at again when its TTL runs out (the status written now carries
  // its completionTime; the periodic resync would find it too, a minute late at most).
  const left = terminal ? ttlLeftMs(o, status.completionTime ?? finishedAt) : undefined;
  if (left !== undefined) actions.requeueAfterMs = Math.max(0, left) + 1000;
  return actions;
}

/** Milliseconds until a Render finished at `completionTime` outlives its TTL; undefined without one. */
function ttlLeftMs(o: Observed, completionTime: string | undefined): number | undefined {
  if (!completionTime || o.renderTtlSec === undefined) return undefined;
  return Date.parse(completionTime) + o.renderTtlSec * 1000 - o.now.getTime();
}

/** Whether a Job has failed, as jobMeaning reads it (Failed, or FailureTarget before it). */
export function isJobFailed(job: V1Job): boolean {
  return failedCondition(observeConditions(job)) !== undefined;
}

export function isJobFinished(job: V1Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** A Job's conditions in the terms of jobMeaning. */
function observeConditions(job: V1Job): JobCondition[] {
  return (job.status?.conditions ?? []).map((c) => ({
    type: c.type,
    status: c.status as 'True' | 'False' | 'Unknown',
    reason: c.reason,
    message: c.message,
  }));
}

/** The Job and the worker's report on the Render, in the terms of jobMeaning. Pure. */
function observeJob(job: V1Job | undefined, render: Render): ObservedJob {
  const s = render.status ?? {};
  return {
    exists: job !== undefined,
    active: job?.status?.active,
    succeeded: job?.status?.succeeded,
    failed: job?.status?.failed,
    conditions: job ? observeConditions(job) : [],
    activeDeadlineSeconds: job?.spec?.activeDeadlineSeconds,
    memoryLimit: job?.spec?.template.spec?.containers.find((c) => c.name === WORKER_CONTAINER)?.resources?.limits
      ?.memory,
    reported: {
      error: s.error
        ? {
            code: s.error.code as ErrorBody['code'],
            message: s.error.message,
            ...(s.error.path ? { path: s.error.path } : {}),
          }
        : undefined,
      output:
        s.outputKey && s.durationSec !== undefined ? { durationSec: s.durationSec, outputKey: s.outputKey } : undefined,
    },
  };
}

/** The status fields a worker reports; the operator's own fields coming back decide nothing new. */
const REPORTED = [
  'phase',
  'progress',
  'durationSec',
  'outputKey',
  'error',
  'segments',
  'totalFrames',
  'segmentFrames',
] as const;

/**
 * Whether an update of a Render can change a decision: the worker reported something (its
 * phase, progress, duration, output or error), or the Render is being deleted. The operator's own
 * status write coming back changes only its fields (and a phase it set itself: queued, done,
 * failed), so it is not a reason for another pass.
 */
export function renderChangeMatters(old: Render, now: Render): boolean {
  if (now.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) return true;
  const a = old.status ?? {};
  const b = now.status ?? {};
  return REPORTED.some((k) => {
    if (JSON.stringify(a[k]) === JSON.stringify(b[k])) return false;
    // A phase the operator writes (queued, done, failed) is its own write coming back.
    return !(k === 'phase' && b.phase !== 'preparing' && b.phase !== 'rendering');
  });
}

/** Whether an update of a Job can change a decision: its pods or its conditions moved. */
export function jobChangeMatters(old: V1Job, now: V1Job): boolean {
  const pick = (j: V1Job) =>
    JSON.stringify([
      j.status?.active ?? 0,
      j.status?.succeeded ?? 0,
      j.status?.failed ?? 0,
      j.status?.startTime ?? null,
      (j.status?.conditions ?? []).map((c) => [c.type, c.status, c.reason]),
    ]);
  return pick(old) !== pick(now);
}
