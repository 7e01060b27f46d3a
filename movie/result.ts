import type { Finding } from '../lib/errors.ts';

/** The outcome of a validation: the value with non-fatal warnings, or every finding. */
export type Result<T> = { ok: true; value: T; warnings: Finding[] } | { ok: false; findings: Finding[] };
