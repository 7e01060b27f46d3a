import assert from 'node:assert/strict';
import { type Database, openDatabase } from '../../store/database.ts';
import { logger } from '../api/helpers.ts';
import { tinyMovie } from '../pipeline/harness.ts';
import { startTcpProxy, type TcpProxy } from '../services/tcp-proxy.ts';

/**
 * Requests fired at a real `serve` through an outage, timed, and the checks the outage tests make
 * of their answers (test/faults/database-bound.test.ts, redis-outage.test.ts); a database reached
 * through a proxy (those and double-claim.test.ts).
 */

/**
 * What an answer may take beyond its deadline: the deadline's timer firing late on a machine whose
 * two cores run other test files too, and a few ms to answer. Measured here: 2 ms to 30 ms.
 */
export const SLACK_MS = 750;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer {
  route: string;
  status: number;
  retryAfter: string | null;
  code: string | undefined;
  ms: number;
}

/** One request at `route` (`METHOD /path`, a POST with a small movie), timed; a hang is cut at 15 s. */
export async function ask(base: string, key: string, route: string): Promise<Answer> {
  const [method, url] = route.split(' ') as [string, string];
  const body = method === 'POST' ? JSON.stringify({ movie: tinyMovie() }) : undefined;
  const started = performance.now();
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
    } catch {}
    const retryAfter = res.headers.get('retry-after');
    return { route, status: res.status, retryAfter, code, ms: performance.now() - started };
  } catch (err) {
    return { route, status: 0, retryAfter: null, code: (err as Error).name, ms: performance.now() - started };
  }
}

/** `requests` requests spread evenly over `overMs` at `routes` in turn, each fired on time. */
export function fireOverOutage(
  base: string,
  key: string,
  routes: readonly string[],
  requests: number,
  overMs: number,
): Promise<Answer[]> {
  const pending: Promise<Answer>[] = [];
  for (let i = 0; i < requests; i++) {
    const route = routes[i % routes.length] as string;
    pending.push(sleep((i * overMs) / requests).then(() => ask(base, key, route)));
  }
  return Promise.all(pending);
}

export function show(answers: Answer[]): string {
  return answers
    .map((a) => `${a.route}: ${a.status} ${a.code ?? ''} retry-after=${a.retryAfter} in ${Math.round(a.ms)} ms`)
    .join('\n');
}

/** Served as usual: 201 for a POST, 200 otherwise. */
export const served = (a: Answer): boolean => a.status === (a.route.startsWith('POST') ? 201 : 200);
/** The outage answer docs/api.md promises: 503 SERVICE_UNAVAILABLE with Retry-After. */
export const unavailable = (a: Answer): boolean =>
  a.status === 503 && a.code === 'SERVICE_UNAVAILABLE' && a.retryAfter !== null;

/** Every answer within `boundMs` and accepted by `accept` (`what` names it in the failure). */
export function assertBounded(
  answers: Answer[],
  boundMs: number,
  accept: (a: Answer) => boolean = unavailable,
  what = '503 SERVICE_UNAVAILABLE with Retry-After',
): void {
  const late = answers.filter((a) => a.ms > boundMs);
  assert.deepEqual(late, [], `answers later than ${boundMs} ms:\n${show(answers)}`);
  const wrong = answers.filter((a) => !accept(a));
  assert.deepEqual(wrong, [], `answers other than ${what}:\n${show(answers)}`);
}

/**
 * The database of `direct` reached again through a TCP proxy the test controls (freeze, cut,
 * refuse): what the code under test uses, while `direct` stays for the test's own checks.
 */
export async function databaseThroughProxy(
  direct: Database,
  backend: string,
): Promise<{ proxy: TcpProxy; viaProxy: Database }> {
  const url = new URL(direct.url);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  url.host = `127.0.0.1:${proxy.port}`;
  // PGlite is one session shared by its connections: one, as its own client uses.
  const viaProxy = await openDatabase({
    databaseUrl: url.toString(),
    dataDir: '.',
    logger,
    migrate: false,
    max: backend === 'pglite' ? 1 : 2,
  });
  await viaProxy.sql`SELECT 1`;
  return { proxy, viaProxy };
}
