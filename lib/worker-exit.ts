import { ERROR_CATALOG, type ErrorCode, retriesAttempt } from './errors.ts';

/**
 * How a worker process ends, read by the Job's podFailurePolicy. A failure the worker reports
 * itself exits with its catalogue code's exit status; the catalogue's `retry` column decides: a
 * 'final' code ends the render at once (FailJob), as on one machine, and an 'attempt' code exits
 * 1, which counts against the Job's backoffLimit and is retried, as a crash, an OOM kill or exit
 * 137 is.
 */

/** The exit status of a worker that failed with `code`. */
export function workerExitCode(code: ErrorCode): number {
  return retriesAttempt(code) ? 1 : ERROR_CATALOG[code].exit;
}

/**
 * The exit status of a worker pod the kubelet stopped (128 + SIGTERM: the pod deleted, evicted or
 * preempted): nothing is reported on the Render and the Job runs the pod again. Never final.
 */
export const STOPPED_EXIT = 143;

/** Exit statuses that fail the Job without a retry (podFailurePolicy FailJob), ascending. */
export const FINAL_EXIT_CODES: readonly number[] = [
  ...new Set(
    (Object.keys(ERROR_CATALOG) as ErrorCode[])
      .filter((c) => !retriesAttempt(c) && ERROR_CATALOG[c].exit > 1)
      .map((c) => ERROR_CATALOG[c].exit),
  ),
].sort((a, b) => a - b);
