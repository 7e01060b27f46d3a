import type { Logger } from './logger.ts';

/**
 * Resolves with the process's exit code once SIGTERM or SIGINT came and `stop` (drain, release,
 * close) finished: 0, or 1 when it threw. After that the process exits within a second even if
 * a handle lingers: after a database outage postgres.js may re-open its LISTEN socket when end()
 * closes it (the listener it re-created no longer answers to unlisten), which would keep the
 * process alive for ever although nothing is left to do.
 */
export function untilShutdown(logger: Logger, stop: () => Promise<void>): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      stop()
        .then(
          () => 0,
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            return 1;
          },
        )
        .then((code) => {
          setTimeout(() => process.exit(code), 1_000).unref();
          resolve(code);
        });
    };
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
  });
}

/** The message of the one line a failed start-up logs (tests and log alerts look for it). */
export const STARTUP_FAILED_MESSAGE = 'start-up failed: the process exits';

/**
 * A start-up that failed (a port taken, a setting refused, a cluster unreachable): one fatal JSON
 * line, a bounded attempt to close what was opened (`cleanup`, at most `cleanupMs`), then exit 1
 * at once. Left alone, whatever start-up had opened (a database pool, a listener, a worker
 * thread) would keep a process that serves nothing alive until its startup probe gives up.
 */
export async function exitOnStartupFailure(
  logger: Logger,
  err: unknown,
  cleanup: () => Promise<void> = async () => {},
  cleanupMs = 3_000,
): Promise<never> {
  logger.fatal({ err }, STARTUP_FAILED_MESSAGE);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    cleanup().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, cleanupMs);
    }),
  ]);
  clearTimeout(timer);
  // pino flushes its stream on exit.
  process.exit(1);
}
