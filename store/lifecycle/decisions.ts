import { type ErrorBody, type ErrorCode, retriesAttempt } from '../../lib/errors.ts';

/**
 * What an executor's observations mean for a render, as pure functions. Executors report what
 * happened (a worker answered, died, a Job changed); these decide what the lifecycle records, so
 * the in-process pool and the cluster operator cannot read the same event two ways.
 */

/** An error as the lifecycle records it; the caller adds `docsUrl` (errorBody) for its base URL. */
type RenderError = Omit<ErrorBody, 'docsUrl'>;

/** What the worker reported when a render finished (the input of lifecycle.complete). */
export interface CompletedOutput {
  durationSec: number;
  outputKey: string;
}

/**
 * The message of a render given up because its worker kept stopping without an answer (a crash,
 * a killed server or node, a timeout). `detail` is the last stop's cause where one is known.
 */
export function stoppedUnexpectedly(times: number, detail?: string): string {
  const count = times === 1 ? 'once' : `${times} times`;
  return `The render worker stopped unexpectedly ${count}${detail ? ` (last: ${detail})` : ''}, so the render was stopped. Create it again; if that fails too, report the render id.`;
}

// ---------------------------------------------------------------------------------------------
// (a) The in-process executor: one attempt of a worker process ended.

/**
 * How one attempt ended: `done` (the worker answered with its output), `failed` (the worker
 * answered with an error, `code`), `crashed` (it died or was stopped without an answer, a timeout
 * included).
 */
export type AttemptOutcome = 'done' | 'failed' | 'crashed';

export interface AttemptReport {
  outcome: AttemptOutcome;
  /** The code of a `failed` attempt's error: the catalogue's `retry` says whether it runs again. */
  code?: ErrorCode | undefined;
  /** Which attempt this was, from 1 (the render row's `attempts` after the claim). */
  attempt: number;
  maxAttempts: number;
  /** The executor is draining and stopped this worker itself. */
  stopping: boolean;
  /** The render was cancelled (lifecycle.cancel recorded it) and the executor stopped its worker. */
  cancelled: boolean;
  /** What is known of a crash (exit code, the tail of stderr), for the message. */
  detail?: string | undefined;
}

export type OutcomeDecision =
  /** Record the output: lifecycle.complete. */
  | { action: 'complete' }
  /** Fail with the error the worker reported: lifecycle.fail. */
  | { action: 'fail'; cause: 'worker' }
  /** Fail with the platform's error: lifecycle.fail. */
  | { action: 'fail'; cause: 'interrupted'; error: RenderError }
  /** Run it again from the start at once: lifecycle.retryAttempt. */
  | { action: 'retry' }
  /** Give it back unfailed, the attempt returned, for another executor: lifecycle.release. */
  | { action: 'hand-back' }
  /** Nothing to record: the render was cancelled, and its output (if any) is not kept. */
  | { action: 'cancelled' };

/**
 * What an attempt's end means. A cancelled render records nothing more, whatever its worker
 * answered (the cancellation ended it). A finished output is always kept, even while draining; a render
 * stopped by its own draining executor is handed back whatever the worker said on its way out
 * (a SIGTERM may surface as an error). The worker's error is final when the catalogue's `retry`
 * says so (lib/errors.ts, as a Job's pod exits for it: lib/worker-exit.ts); otherwise, as a crash,
 * it runs again while attempts are left, then fails with its code (a crash with INTERNAL).
 */
export function decideOutcome(report: AttemptReport): OutcomeDecision {
  if (report.cancelled) return { action: 'cancelled' };
  if (report.outcome === 'done') return { action: 'complete' };
  if (report.stopping) return { action: 'hand-back' };
  const again = report.attempt < report.maxAttempts;
  if (report.outcome === 'failed') {
    return report.code && retriesAttempt(report.code) && again
      ? { action: 'retry' }
      : { action: 'fail', cause: 'worker' };
  }
  if (again) return { action: 'retry' };
  return {
    action: 'fail',
    cause: 'interrupted',
    error: { code: 'INTERNAL', message: stoppedUnexpectedly(report.attempt, report.detail) },
  };
}

// ---------------------------------------------------------------------------------------------
// (b) The cluster operator: the observed batch/v1 Job of a render.

/** Condition types of a batch/v1 Job (JobConditionType). */
const JobConditionType = {
  complete: 'Complete',
  failed: 'Failed',
  /** Set (since Kubernetes 1.31) before Complete, while the last pods terminate. */
  successCriteriaMet: 'SuccessCriteriaMet',
  /** Set before Failed, while the remaining pods terminate: the Job will fail. */
  failureTarget: 'FailureTarget',
  suspended: 'Suspended',
} as const;

/** Reasons of a Job's Failed (and FailureTarget) condition. */
const JobFailureReason = {
  backoffLimitExceeded: 'BackoffLimitExceeded',
  deadlineExceeded: 'DeadlineExceeded',
  /** A pod failure policy rule with action FailJob matched: the worker's bad-input exit code. */
  podFailurePolicy: 'PodFailurePolicy',
  /** An Indexed Job's index failed more than backoffLimitPerIndex times (maxFailedIndexes: 0). */
  maxFailedIndexesExceeded: 'MaxFailedIndexesExceeded',
  failedIndexes: 'FailedIndexes',
} as const;

/** A condition of the Job's status, as metav1.Condition-like JobCondition carries it. */
export interface JobCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string | undefined;
  message?: string | undefined;
}

/**
 * What the render's worker last wrote to the Render resource's status. `T` is what a finished
 * Job leaves: the MP4 (a whole render, a join), or what the next stage needs (a prepare's plan).
 */
interface ReportedStatus<T = CompletedOutput> {
  /** The worker's own error (bad input, an asset), written before it exits with the FailJob code. */
  error?: RenderError | undefined;
  /** The finished output, written before the worker exits 0. */
  output?: T | undefined;
}

/** The observed Job of one render, and the render's last report. */
export interface ObservedJob<T = CompletedOutput> {
  exists: boolean;
  /** Pods running, succeeded and failed (JobStatus). */
  active?: number | undefined;
  succeeded?: number | undefined;
  failed?: number | undefined;
  conditions?: readonly JobCondition[] | undefined;
  /** The Job's spec.activeDeadlineSeconds, for the timeout message. */
  activeDeadlineSeconds?: number | undefined;
  reported?: ReportedStatus<T> | undefined;
  /**
   * Why the kubelet ended the worker container of each failed pod ('OOMKilled', 'Error', ...), read
   * from the pods once the Job has failed; undefined when not looked up.
   */
  terminations?: readonly string[] | undefined;
  /** The worker container's memory limit as the Job gives it (e.g. '4Gi'), for an OOM kill's message. */
  memoryLimit?: string | undefined;
}

/** The message of a render whose worker was OOMKilled on `oom` of its `attempts` attempts. */
export function outOfMemory(oom: number, attempts: number, limit: string | undefined): string {
  const at = limit ? ` of ${limit}` : '';
  const times =
    attempts === 1
      ? 'its only attempt'
      : oom === attempts
        ? `all ${attempts} attempts`
        : `${oom} of ${attempts} attempts`;
  return `The render worker ran out of memory: the node stopped it at its memory limit${at} (OOMKilled) on ${times}. Render a smaller or shorter movie, or ask the platform team to raise the workers' memory limit (worker.resources.limits.memory).`;
}

export type JobMeaning<T = CompletedOutput> =
  /** No Job yet: the operator creates it. */
  | { state: 'missing' }
  /** Not finished (pending, running, between retries, suspended): nothing to record. */
  | { state: 'running' }
  | { state: 'done'; output: T }
  | { state: 'failed'; error: RenderError };

const isTrue = (conditions: readonly JobCondition[], ...types: string[]) =>
  conditions.find((c) => c.status === 'True' && types.includes(c.type));

/**
 * What a render's Job means for the render. Only a terminal condition finishes it (pod counts move
 * before the Job controller decides). The worker writes its result to the resource before it
 * exits, so a succeeded Job without an output means the report was lost: the operator must read
 * the resource it acts on, not a lagging cache.
 */
/**
 * The condition that says a Job has failed: `Failed`, or `FailureTarget`, which the Job controller
 * sets first (from 1.31) while the failed Job's last pods still terminate.
 */
export function failedCondition(conditions: readonly JobCondition[]): JobCondition | undefined {
  return isTrue(conditions, JobConditionType.failed, JobConditionType.failureTarget);
}

export function jobMeaning<T = CompletedOutput>(observed: ObservedJob<T>): JobMeaning<T> {
  if (!observed.exists) return { state: 'missing' };
  const conditions = observed.conditions ?? [];
  const reported = observed.reported;
  if (isTrue(conditions, JobConditionType.complete, JobConditionType.successCriteriaMet)) {
    if (reported?.output) return { state: 'done', output: reported.output };
    if (reported?.error) return { state: 'failed', error: reported.error };
    return {
      state: 'failed',
      error: {
        code: 'INTERNAL',
        message: 'The render worker exited without reporting its output. Create the render again.',
      },
    };
  }
  const failed = failedCondition(conditions);
  if (!failed) return { state: 'running' };
  switch (failed.reason) {
    case JobFailureReason.deadlineExceeded: {
      const limit = observed.activeDeadlineSeconds;
      return {
        state: 'failed',
        error: {
          code: 'RENDER_FAILED',
          message: `The render did not finish within its time limit${limit ? ` of ${limit} s` : ''} and was stopped. Shorten the movie or split it, or make a draft first.`,
        },
      };
    }
    case JobFailureReason.podFailurePolicy:
      return {
        state: 'failed',
        error: reported?.error ?? {
          code: 'RENDER_FAILED',
          message: `The render worker failed without reporting why${failed.message ? ` (${failed.message})` : ''}.`,
        },
      };
    case JobFailureReason.backoffLimitExceeded:
    case JobFailureReason.maxFailedIndexesExceeded:
    case JobFailureReason.failedIndexes: {
      // At FailureTarget the Job's failed count may lag behind the pods the reconciler read.
      const attempts = Math.max(1, observed.failed ?? 1, observed.terminations?.length ?? 0);
      // A worker the kubelet killed at its memory limit says nothing itself: its pods say why.
      const oom = observed.terminations?.filter((r) => r === 'OOMKilled').length ?? 0;
      if (oom > 0) {
        return {
          state: 'failed',
          error: { code: 'RENDER_FAILED', message: outOfMemory(oom, attempts, observed.memoryLimit) },
        };
      }
      return { state: 'failed', error: { code: 'INTERNAL', message: stoppedUnexpectedly(attempts) } };
    }
    default:
      return {
        state: 'failed',
        error: {
          code: 'INTERNAL',
          message: `The render's Job failed (${failed.reason ?? 'no reason given'}${failed.message ? `: ${failed.message}` : ''}). Create the render again.`,
        },
      };
  }
}
