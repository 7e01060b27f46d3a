import { type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger };

/** JSON logs through pino (Fastify's own). Loggers are created once and passed down, never global. */
export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  const opts: LoggerOptions = {
    level: options.level ?? 'info',
    base: options.name ? { name: options.name } : {},
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', '*.apiKey', '*.secret'], censor: '[redacted]' },
  };
  return pino(opts);
}

/** The message of the last-resort handler: tests look for it in a server's log. */
export const UNHANDLED_REJECTION_MESSAGE = 'unhandled promise rejection (a bug: every rejection must be handled)';

/** The message logged just before an uncaught exception ends the process. */
export const UNCAUGHT_EXCEPTION_MESSAGE = 'uncaught exception (a bug): the process exits';

/**
 * The last resort of a long-running process: a promise rejection nobody handled is logged at
 * fatal level instead of killing the process (Node's default), so one missed handler cannot take
 * every in-flight request and render down with it. Code is written so that it never fires.
 * An uncaught exception still ends the process (its state is unknown after one), but first says
 * so in the JSON log, where log collectors and `kubectl logs` look, not only as a stack on stderr.
 */
export function logProcessFailures(logger: Logger): void {
  logProcessWarnings(logger);
  process.on('unhandledRejection', (reason) => logger.fatal({ err: reason }, UNHANDLED_REJECTION_MESSAGE));
  process.on('uncaughtExceptionMonitor', (err, origin) => logger.fatal({ err, origin }, UNCAUGHT_EXCEPTION_MESSAGE));
}

/**
 * A process warning (a deprecation, the AWS SDK's NodeVersionSupportWarning, MaxListenersExceeded)
 * is logged at warn level with its name, code and message instead of Node's plain, multi-line text
 * on stderr: Node prints warnings through a 'warning' listener of its own, which is replaced here
 * (as --no-warnings would, on every Node version and however the process was started).
 */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (w: Error & { code?: string }) =>
    logger.warn({ warning: { name: w.name, code: w.code, message: w.message } }, `process warning: ${w.name}`),
  );
}
