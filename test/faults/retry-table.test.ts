/**
 * The one retry table (the `retry` column of lib/errors.ts's catalogue), walked code by code against
 * each runner: what a Job's pod does when its worker fails with the code (its exit status, and
 * whether the Job's podFailurePolicy ends the render at once), and what the in-process executor
 * decides for the same failure (store/lifecycle/decisions.ts). A runner that answers a code
 * otherwise than the catalogue fails here, naming the code.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_CATALOG, ERROR_CODES, type ErrorCode } from '../../lib/errors.ts';
import { STOPPED_EXIT, workerExitCode } from '../../lib/worker-exit.ts';
import { workerJob } from '../../operator/job-spec.ts';
import { operatorSettings } from '../../operator/settings.ts';
import { decideOutcome } from '../../store/lifecycle/decisions.ts';

const render = {
  metadata: { name: 'rnd-0123456789abcdefghjkmnpqrs', uid: 'uid-1' },
  spec: { renderId: 'rnd_0123456789abcdefghjkmnpqrs', accountId: 'acc_x', estimatedDurationSec: 30 },
};
const job = workerJob(render, operatorSettings({ KUBE_NAMESPACE: 'fw', WORKER_IMAGE: 'reg/fw:1' }).job);

/** What the Job controller does with a pod that exited `exit`: fail the Job, or count a failure and retry. */
function jobAnswers(exit: number): 'final' | 'attempt' {
  const rules = job.spec?.podFailurePolicy?.rules ?? [];
  const failJob = rules.some(
    (r) => r.action === 'FailJob' && r.onExitCodes?.operator === 'In' && r.onExitCodes.values.includes(exit),
  );
  return failJob ? 'final' : 'attempt';
}

/** What the in-process executor does with a worker's failure, with an attempt left. */
function inProcessAnswers(code: ErrorCode): 'final' | 'attempt' {
  const d = decideOutcome({
    outcome: 'failed',
    code,
    attempt: 1,
    maxAttempts: 2,
    stopping: false,
    cancelled: false,
  });
  return d.action === 'retry' ? 'attempt' : 'final';
}

/** Codes a render can fail with: a warning (exit 0) never fails one. */
const FAILURES = ERROR_CODES.filter((c) => ERROR_CATALOG[c].exit !== 0);

describe('the retry table: each code of the catalogue, as every runner answers it', () => {
  it('a Job pod and the in-process executor each answer every failure code as its retry column says', () => {
    const disagreements: string[] = [];
    for (const code of FAILURES) {
      const want = ERROR_CATALOG[code].retry;
      const pod = jobAnswers(workerExitCode(code));
      const inProcess = inProcessAnswers(code);
      if (pod !== want || inProcess !== want) {
        disagreements.push(`${code}: catalogue ${want}, Job pod ${pod}, in-process ${inProcess}`);
      }
    }
    assert.deepEqual(disagreements, []);
    // Both kinds are in the table, so the walk above checks each answer at least once.
    assert.ok(FAILURES.some((c) => ERROR_CATALOG[c].retry === 'attempt'));
    assert.ok(FAILURES.some((c) => ERROR_CATALOG[c].retry === 'final'));
  });

  it('a retried code, with no attempt left, fails the render with the worker’s own error', () => {
    for (const code of FAILURES.filter((c) => ERROR_CATALOG[c].retry === 'attempt')) {
      const d = decideOutcome({
        outcome: 'failed',
        code,
        attempt: 2,
        maxAttempts: 2,
        stopping: false,
        cancelled: false,
      });
      assert.deepEqual(d, { action: 'fail', cause: 'worker' }, code);
    }
  });

  it('what no code says: a crash and a pod the kubelet stopped are retried; a warning code is no failure', () => {
    assert.equal(jobAnswers(137), 'attempt', 'killed (the OOM killer, SIGKILL)');
    assert.equal(jobAnswers(STOPPED_EXIT), 'attempt', 'stopped by the kubelet (SIGTERM)');
    assert.equal(jobAnswers(1), 'attempt', 'a crash');
    const crash = decideOutcome({ outcome: 'crashed', attempt: 1, maxAttempts: 2, stopping: false, cancelled: false });
    assert.equal(crash.action, 'retry');
    for (const code of ERROR_CODES.filter((c) => ERROR_CATALOG[c].exit === 0)) {
      assert.equal(ERROR_CATALOG[code].status, 200, `${code} is a warning`);
    }
  });
});
