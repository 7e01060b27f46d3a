import { AppError } from './errors.ts';

/**
 * The platform's own faults, told apart from the customer's: a full or failing local disk is
 * never reported as a fault of the document (`TTS_FAILED` at a voice element's path) nor as a
 * bare 500. Node's `code` (errno name) is looked for on the error and along its `cause` chain.
 */
const STORAGE_FULL = new Set(['ENOSPC', 'EDQUOT']);
const DISK_FAILED = new Set(['EIO', 'EROFS']);
/** What ffmpeg (and other programs) print for the same errnos: their errors carry only stderr. */
const FULL_TEXT = /No space left on device|Disk quota exceeded/;

function errnoOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && (STORAGE_FULL.has(code) || DISK_FAILED.has(code))) return code;
  }
  return undefined;
}

/**
 * The platform's error for `err` when a local disk caused it: INSUFFICIENT_STORAGE for a full disk
 * or quota, INTERNAL for a failing or read-only one; never a `path`. Undefined otherwise.
 */
export function platformFault(err: unknown, doing: string): AppError | undefined {
  const errno = errnoOf(err);
  if (!errno) return undefined;
  // Already told apart nearer the fault, with a better message.
  if (err instanceof AppError && (err.code === 'INSUFFICIENT_STORAGE' || err.code === 'INTERNAL')) return err;
  if (STORAGE_FULL.has(errno)) {
    return new AppError('INSUFFICIENT_STORAGE', `The platform's disk is full (${errno}) while ${doing}.`, {
      cause: err,
    });
  }
  return new AppError('INTERNAL', `The platform's disk failed (${errno}) while ${doing}.`, { cause: err });
}

/** Whether a program's stderr says it ran out of disk space (ffmpeg reports no errno). */
export function saysDiskFull(text: string): boolean {
  return FULL_TEXT.test(text);
}
