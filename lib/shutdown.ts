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
