/** The state of one validation walk: where we are, what was found, which placeholders were seen. */
import type { ErrorCode } from '../../lib/errors.ts';
import type { Segment } from '../paths.ts';
import { type PlaceholderScan, scanPlaceholders } from '../placeholders.ts';

export interface RawFinding {
  code: ErrorCode;
  message: string;
  segments: Segment[];
}

/** Which JSON scalar types a schema position accepts: decides how a whole placeholder is substituted. */
export interface Admits {
  string: boolean;
  number: boolean;
  boolean: boolean;
}

/** A string that holds placeholders or escapes, and where it sits. */
export interface Site {
  segments: Segment[];
  raw: string;
  scan: PlaceholderScan;
  admits: Admits;
}

/**
 * Findings collected before sorting. Hostile documents can produce unbounded findings (a million
 * unknown keys), so the walk stops collecting past this and the caller reports the first ones.
 */
const INTERNAL_FINDINGS_CAP = 1000;

export interface WalkContext {
  path: Segment[];
  findings: RawFinding[];
  /** Template mode: strings with {{references}} stand in for any scalar and are checked after resolution. */
  template: boolean;
  /** First reference of each variable, in walk (= document) order. */
  refs: Map<string, Segment[]>;
  sites: Site[];
  full: boolean;
}

export function newContext(template: boolean): WalkContext {
  return { path: [], findings: [], template, refs: new Map(), sites: [], full: false };
}

/** Records a finding at the current path plus `extra` segments. */
export function report(ctx: WalkContext, code: ErrorCode, message: string, ...extra: Segment[]): void {
  if (ctx.full) return;
  ctx.findings.push({ code, message, segments: extra.length ? [...ctx.path, ...extra] : ctx.path.slice() });
  if (ctx.findings.length >= INTERNAL_FINDINGS_CAP) ctx.full = true;
}

/** Records a finding at an absolute path. */
export function reportAt(ctx: WalkContext, code: ErrorCode, message: string, segments: Segment[]): void {
  if (ctx.full) return;
  ctx.findings.push({ code, message, segments });
  if (ctx.findings.length >= INTERNAL_FINDINGS_CAP) ctx.full = true;
}

/** Whether a value is a string holding a {{reference}} in template mode (its real value comes later). */
export function isDeferred(ctx: WalkContext, value: unknown): boolean {
  if (!ctx.template || typeof value !== 'string') return false;
  const scan = scanPlaceholders(value);
  return scan !== undefined && scan.refs.length > 0;
}
