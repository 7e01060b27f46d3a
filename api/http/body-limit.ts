import { AppError } from '../../lib/errors.ts';

const KIB = 1024;
const MIB = 1024 * KIB;

/** A byte count as people read it: `1 MiB`, `100 MiB`, `64 KiB`, or `1,500 bytes` when not round. */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * The 413 for a body over `limitBytes`, the limit of the route that refused it. Routes that read
 * their body themselves (streamed uploads) throw this too, so every 413 reads alike.
 */
export function payloadTooLarge(limitBytes: number, headers?: Record<string, string>): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${formatBytes(limitBytes)}.`, {
    ...(headers ? { headers } : {}),
  });
}
