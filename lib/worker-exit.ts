import { ERROR_CATALOG, type ErrorCode } from './errors.ts';

/**
 * How a worker process ends, read by the Job's podFailurePolicy. A failure the worker reports
 * itself (bad input, an unreachable asset, a renderer error) exits with its catalogue code's exit
 * status and ends the render at once, as on one machine; anything else (a crash, an OOM kill,
 * exit 137) counts against the Job's backoffLimit and is retried.
 */
const RETRIED: ReadonlySet<ErrorCode> = new Set(['INTERNAL', 'SERVICE_UNAVAILABLE']);

/** The exit status of a worker that failed with `code`. */
export function workerExitCode(code: ErrorCode): number {
  return RETRIED.has(code) ? 1 : ERROR_CATALOG[code].exit;
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
      .filter((c) => !RETRIED.has(c) && ERROR_CATALOG[c].exit > 1)
      .map((c) => ERROR_CATALOG[c].exit),
  ),
].sort((a, b) => a - b);
