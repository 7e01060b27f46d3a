import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AttemptReport,
  decideOutcome,
  type JobCondition,
  type JobMeaning,
  jobMeaning,
  type ObservedJob,
  type OutcomeDecision,
  outOfMemory,
  stoppedUnexpectedly,
} from './decisions.ts';

describe('decideOutcome', () => {
  const report = (over: Partial<AttemptReport>): AttemptReport => ({
    outcome: 'done',
    attempt: 1,
    maxAttempts: 2,
    stopping: false,
    cancelled: false,
    ...over,
  });
  const interrupted = (times: number, detail?: string): OutcomeDecision => ({
    action: 'fail',
    cause: 'interrupted',
    error: { code: 'INTERNAL', message: stoppedUnexpectedly(times, detail) },
  });
  const cancelled: OutcomeDecision = { action: 'cancelled' };
  const cases: [string, AttemptReport, OutcomeDecision][] = [
    ['done: complete', report({ outcome: 'done' }), { action: 'complete' }],
    ['done on the last attempt: complete', report({ outcome: 'done', attempt: 2 }), { action: 'complete' }],
    ['done while draining: the output is kept', report({ outcome: 'done', stopping: true }), { action: 'complete' }],
    ['failed: the worker error, no retry', report({ outcome: 'failed' }), { action: 'fail', cause: 'worker' }],
    [
      'failed on the last attempt: the worker error',
      report({ outcome: 'failed', attempt: 2 }),
      { action: 'fail', cause: 'worker' },
    ],
    ['failed while draining: handed back', report({ outcome: 'failed', stopping: true }), { action: 'hand-back' }],
    ['crashed with attempts left: retry', report({ outcome: 'crashed', attempt: 1 }), { action: 'retry' }],
    ['crashed, 1 of 3: retry', report({ outcome: 'crashed', attempt: 1, maxAttempts: 3 }), { action: 'retry' }],
    ['crashed, 2 of 3: retry', report({ outcome: 'crashed', attempt: 2, maxAttempts: 3 }), { action: 'retry' }],
    [
      'crashed on the last attempt: INTERNAL',
      report({ outcome: 'crashed', attempt: 2, detail: 'exit 134: out of memory' }),
      interrupted(2, 'exit 134: out of memory'),
    ],
    ['crashed past the last attempt: INTERNAL', report({ outcome: 'crashed', attempt: 3 }), interrupted(3)],
    ['crashed with one attempt allowed: INTERNAL', report({ outcome: 'crashed', maxAttempts: 1 }), interrupted(1)],
    ['crashed while draining: handed back', report({ outcome: 'crashed', stopping: true }), { action: 'hand-back' }],
    [
      'crashed on the last attempt while draining: handed back, not failed',
      report({ outcome: 'crashed', attempt: 2, stopping: true }),
      { action: 'hand-back' },
    ],
    ['cancelled, stopped without an answer: nothing more', report({ outcome: 'crashed', cancelled: true }), cancelled],
    [
      'cancelled, on the last attempt: not failed INTERNAL',
      report({ outcome: 'crashed', attempt: 2, cancelled: true }),
      cancelled,
    ],
    ['cancelled as it finished: the output is not kept', report({ outcome: 'done', cancelled: true }), cancelled],
    ['cancelled as it failed: its error is not recorded', report({ outcome: 'failed', cancelled: true }), cancelled],
    [
      'cancelled while draining: not handed back',
      report({ outcome: 'crashed', stopping: true, cancelled: true }),
      cancelled,
    ],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => assert.deepEqual(decideOutcome(input), want));
  }
});

describe('outOfMemory', () => {
  it('names the limit and the attempts, and what to change', () => {
    assert.equal(
      outOfMemory(3, 3, '4Gi'),
      "The render worker ran out of memory: the node stopped it at its memory limit of 4Gi (OOMKilled) on all 3 attempts. Render a smaller or shorter movie, or ask the platform team to raise the workers' memory limit (worker.resources.limits.memory).",
    );
    assert.match(outOfMemory(1, 1, undefined), /at its memory limit \(OOMKilled\) on its only attempt\./);
    assert.match(outOfMemory(1, 2, '1Gi'), /of 1Gi \(OOMKilled\) on 1 of 2 attempts\./);
  });
});

describe('stoppedUnexpectedly', () => {
  it('counts the stops and names the last cause', () => {
    assert.match(stoppedUnexpectedly(1), /^The render worker stopped unexpectedly once, so the render was stopped\./);
    assert.match(
      stoppedUnexpectedly(2, 'SIGKILL'),
      /^The render worker stopped unexpectedly 2 times \(last: SIGKILL\)/,
    );
  });
});

describe('jobMeaning', () => {
  const cond = (type: string, reason?: string, message?: string): JobCondition => ({
    type,
    status: 'True',
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  });
  const job = (over: Partial<ObservedJob>): ObservedJob => ({
    exists: true,
    active: 0,
    succeeded: 0,
    failed: 0,
    conditions: [],
    ...over,
  });
  const output = { durationSec: 12.5, outputKey: 'renders/rnd_1.mp4' };
  const assetError = { code: 'ASSET_UNREACHABLE' as const, message: 'HTTP 404', path: 'scenes[0].elements[1].src' };
  const policy = 'Container worker for pod ns/p failed with exit code 30 matching FailJob rule at index 0';
  const cases: [string, ObservedJob, JobMeaning][] = [
    ['no Job yet: missing', { exists: false }, { state: 'missing' }],
    ['no Job, even with a stale report: missing', { exists: false, reported: { output } }, { state: 'missing' }],
    ['created, no pod yet: running', job({}), { state: 'running' }],
    ['a pod runs: running', job({ active: 1 }), { state: 'running' }],
    [
      'the worker reported its output, the Job not yet Complete: running',
      job({ active: 1, reported: { output } }),
      {
        state: 'running',
      },
    ],
    ['a pod failed, the Job retries: running', job({ active: 1, failed: 1 }), { state: 'running' }],
    ['a pod succeeded before the condition: running', job({ succeeded: 1 }), { state: 'running' }],
    ['suspended: running', job({ conditions: [cond('Suspended')] }), { state: 'running' }],
    [
      'a condition that is not True does not finish it',
      job({ active: 1, conditions: [{ type: 'Failed', status: 'False', reason: 'BackoffLimitExceeded' }] }),
      { state: 'running' },
    ],
    [
      'Complete with the output: done',
      job({ succeeded: 1, conditions: [cond('Complete')], reported: { output } }),
      {
        state: 'done',
        output,
      },
    ],
    [
      'SuccessCriteriaMet with the output: done',
      job({ succeeded: 1, conditions: [cond('SuccessCriteriaMet')], reported: { output } }),
      { state: 'done', output },
    ],
    [
      'Complete with a reported error: that error',
      job({ succeeded: 1, conditions: [cond('Complete')], reported: { error: assetError } }),
      { state: 'failed', error: assetError },
    ],
    [
      'Complete without a report: INTERNAL',
      job({ succeeded: 1, conditions: [cond('Complete')] }),
      {
        state: 'failed',
        error: {
          code: 'INTERNAL',
          message: 'The render worker exited without reporting its output. Create the render again.',
        },
      },
    ],
    [
      'DeadlineExceeded: a timeout, with the limit',
      job({
        failed: 1,
        activeDeadlineSeconds: 3600,
        conditions: [cond('Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline')],
      }),
      {
        state: 'failed',
        error: {
          code: 'RENDER_FAILED',
          message:
            'The render did not finish within its time limit of 3600 s and was stopped. Shorten the movie or split it, or make a draft first.',
        },
      },
    ],
    [
      'DeadlineExceeded wins over a reported error',
      job({ failed: 1, conditions: [cond('Failed', 'DeadlineExceeded')], reported: { error: assetError } }),
      {
        state: 'failed',
        error: {
          code: 'RENDER_FAILED',
          message:
            'The render did not finish within its time limit and was stopped. Shorten the movie or split it, or make a draft first.',
        },
      },
    ],
    [
      'PodFailurePolicy with the worker error: that error',
      job({ failed: 1, conditions: [cond('Failed', 'PodFailurePolicy', policy)], reported: { error: assetError } }),
      { state: 'failed', error: assetError },
    ],
    [
      'FailureTarget (pods still terminating) means the same as Failed',
      job({
        failed: 1,
        active: 0,
        conditions: [cond('FailureTarget', 'PodFailurePolicy', policy)],
        reported: { error: assetError },
      }),
      { state: 'failed', error: assetError },
    ],
    [
      'PodFailurePolicy without a report: RENDER_FAILED',
      job({ failed: 1, conditions: [cond('Failed', 'PodFailurePolicy', policy)] }),
      {
        state: 'failed',
        error: { code: 'RENDER_FAILED', message: `The render worker failed without reporting why (${policy}).` },
      },
    ],
    [
      'PodFailurePolicy without a report or message: RENDER_FAILED',
      job({ failed: 1, conditions: [cond('Failed', 'PodFailurePolicy')] }),
      { state: 'failed', error: { code: 'RENDER_FAILED', message: 'The render worker failed without reporting why.' } },
    ],
    [
      'BackoffLimitExceeded: INTERNAL, stopped unexpectedly N times',
      job({
        failed: 2,
        conditions: [cond('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit')],
      }),
      { state: 'failed', error: { code: 'INTERNAL', message: stoppedUnexpectedly(2) } },
    ],
    [
      'BackoffLimitExceeded after OOM kills: RENDER_FAILED naming the memory limit',
      {
        ...job({ failed: 3, conditions: [cond('Failed', 'BackoffLimitExceeded')] }),
        terminations: ['OOMKilled', 'OOMKilled', 'OOMKilled'],
        memoryLimit: '96Mi',
      },
      { state: 'failed', error: { code: 'RENDER_FAILED', message: outOfMemory(3, 3, '96Mi') } },
    ],
    [
      'BackoffLimitExceeded, one of two attempts OOMKilled: still the memory',
      {
        ...job({ failed: 2, conditions: [cond('Failed', 'BackoffLimitExceeded')] }),
        terminations: ['Error', 'OOMKilled'],
      },
      { state: 'failed', error: { code: 'RENDER_FAILED', message: outOfMemory(1, 2, undefined) } },
    ],
    [
      'BackoffLimitExceeded, pods ended with errors only: stopped unexpectedly',
      { ...job({ failed: 2, conditions: [cond('Failed', 'BackoffLimitExceeded')] }), terminations: ['Error', 'Error'] },
      { state: 'failed', error: { code: 'INTERNAL', message: stoppedUnexpectedly(2) } },
    ],
    [
      'BackoffLimitExceeded with a backoff limit of 0: once',
      job({ failed: 1, conditions: [cond('Failed', 'BackoffLimitExceeded')] }),
      { state: 'failed', error: { code: 'INTERNAL', message: stoppedUnexpectedly(1) } },
    ],
    [
      'another failure reason: INTERNAL naming it',
      job({ failed: 1, conditions: [cond('Failed', 'SomeFutureReason', 'too many')] }),
      {
        state: 'failed',
        error: {
          code: 'INTERNAL',
          message: "The render's Job failed (SomeFutureReason: too many). Create the render again.",
        },
      },
    ],
    [
      'an index of an Indexed Job failed past backoffLimitPerIndex: stopped unexpectedly, as a crash',
      job({ failed: 2, conditions: [cond('Failed', 'MaxFailedIndexesExceeded', 'too many')] }),
      { state: 'failed', error: { code: 'INTERNAL', message: stoppedUnexpectedly(2) } },
    ],
    [
      'Failed without a reason: INTERNAL',
      job({ failed: 1, conditions: [cond('Failed')] }),
      {
        state: 'failed',
        error: { code: 'INTERNAL', message: "The render's Job failed (no reason given). Create the render again." },
      },
    ],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => assert.deepEqual(jobMeaning(input), want));
  }
});
