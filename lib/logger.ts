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
