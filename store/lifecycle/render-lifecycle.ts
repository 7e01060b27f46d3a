import { type ErrorBody, errorBody } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Database, Queryable } from '../database.ts';
import type { Owner, Plan, RenderRow } from '../types.ts';
import type { CompletedOutput } from './decisions.ts';
import { priceRender } from './pricing.ts';
import { outputExpiry } from './retention.ts';
import { type ActivePhase, advanceProgress, advanceStatus, isTerminal } from './transitions.ts';

export type { CompletedOutput } from './decisions.ts';

/**
 * The render lifecycle: every state change of a render, what it means (metering, price, credit
 * settlement, retention) and its side effects (webhook outbox row), each in one transaction. Both
 * executors (the in-process pool and the cluster operator) only report what happened, through
 * these functions (and decisions.ts for what an observation means), so the two shapes cannot
 * drift apart.
 */

export interface Lease {
  /**
   * Who holds the render: one token per claim (the in-process executor's is its instance id and
   * a number of its own for each claim), so that a stale attempt's reports are ignored even when
   * the same process claimed the render again.
   */
  owner: string;
  /** Lease length: a holder that stops heartbeating loses the render after this long. */
  leaseMs: number;
}

/**
 * When a lease taken or renewed now ends, on the database's clock at the statement (not the
 * caller's clock when it sent it: a claim held up 30 s by a database outage would write a lease
 * that had already ended, and the render would be claimed a second time).
 */
function leaseEnd(sql: Queryable, lease: Lease) {
  return sql`clock_timestamp() + ${lease.leaseMs}::float8 * interval '1 millisecond'`;
}

export interface LifecycleDeps {
  db: Database;
  /**
   * The clock of what users see (updatedAt, expiresAt, webhooks, metrics); tests move it. Leases
   * are never measured by it: they are on the database's clock (claimNext).
   */
  now: () => Date;
  /** Told of each transition once it committed (metrics): wherever it runs, it is counted once. */
  observer?: LifecycleObserver | undefined;
}

/**
 * What happened to a render, reported after the transaction committed. The executor that runs a
 * render (the in-process pool, or the operator, which mirrors it without a lease) is the one
 * process that sees each transition, so counting here counts each event exactly once.
 */
export interface LifecycleObserver {
  /** A holder took the render at `at`; `queueWaitSec` (creation to `at`) the first time it left the queue. */
  claimed(id: string, queueWaitSec: number | undefined, at: Date): void;
  completed(id: string, creditsCharged: number, at: Date): void;
  failed(id: string, code: string, at: Date): void;
}

/** A render row with what the lifecycle needs beyond the resource fields. */
export type LeasedRender = RenderRow & { attempts: number; plan: Plan };

/**
 * "Now" on the database's clock, read once when the statement starts, as a comparison an index can
 * serve: `lease_expires_at <= clock_timestamp()` cannot use `renders_leases` (a volatile function
 * is evaluated for each row), and so read every running render's row on each claim and sweep.
 */
function dbNow(sql: Queryable) {
  return sql`(SELECT clock_timestamp())`;
}

/**
 * Claims the oldest runnable render: a queued one, or one whose holder's lease expired and that
 * has attempts left (a crashed worker or a killed server). FOR UPDATE SKIP LOCKED lets several
 * executors claim side by side without taking the same render. Leases are measured and compared
 * on the database's clock only (`deps.now` is for the timestamps users see): the lease starts when
 * the claiming statement runs, however long the call took to get there. `running`: renders the
 * caller runs itself, never claimed again by it whatever their lease says.
 *
 * One statement: the oldest queued render (`renders_queue`, in its order) and the oldest expired
 * lease (`renders_leases`, only the expired ones) are each found through their index, the older of
 * the two is taken; so a claim reads a few index pages however many renders run, wait or finished
 * (test/pipeline/lease-plans.test.ts, `make bench-leases`).
 */
export async function claimNext(
  deps: LifecycleDeps,
  lease: Lease,
  maxAttempts: number,
  running: readonly string[] = [],
): Promise<LeasedRender | undefined> {
  const now = deps.now();
  const sql = deps.db.sql;
  const notRunning = running.length > 0 ? sql`AND id <> ALL(${running as string[]}::text[])` : sql``;
  const [claimed] = await sql<(LeasedRender & { wasQueued: boolean })[]>`
    WITH queued AS (
      SELECT id, created_at FROM renders
      WHERE status = 'queued' ${notRunning}
      ORDER BY created_at, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    ), expired AS (
      SELECT id, created_at FROM renders
      WHERE status IN ('preparing', 'rendering') AND lease_expires_at <= ${dbNow(sql)}
        AND attempts < ${maxAttempts} ${notRunning}
      ORDER BY created_at, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    ), next AS (
      SELECT id, was_queued FROM (
        SELECT id, created_at, true AS was_queued FROM queued
        UNION ALL
        SELECT id, created_at, false FROM expired
      ) candidates
      ORDER BY created_at, id
      LIMIT 1
    )
    UPDATE renders r SET
      status = CASE WHEN r.status = 'queued' THEN 'preparing' ELSE r.status END,
      updated_at = CASE WHEN r.status = 'queued' THEN ${now} ELSE r.updated_at END,
      attempts = r.attempts + 1,
      lease_owner = ${lease.owner},
      lease_expires_at = ${leaseEnd(sql, lease)}
    FROM next, accounts a
    WHERE r.id = next.id AND a.id = r.account_id
    RETURNING r.*, a.plan, next.was_queued`;
  if (!claimed) return undefined;
  deps.db.renderChanges.publish(claimed.id);
  const { wasQueued, ...render } = claimed;
  deps.observer?.claimed(render.id, wasQueued ? secondsBetween(render.createdAt, now) : undefined, now);
  return render;
}

function secondsBetween(from: Date, to: Date): number {
  return Math.max(0, (to.getTime() - from.getTime()) / 1000);
}

/** Publishes the change of render `id` when `changed` (after the transaction committed). */
function announce(deps: LifecycleDeps, id: string, changed: boolean): boolean {
  if (changed) deps.db.renderChanges.publish(id);
  return changed;
}

/**
 * Extends the lease to `leaseMs` from now on the database's clock; false when the holder lost it
 * (expired and reclaimed by another claim, or finished). A lease that ran out but that nobody
 * claimed again is still the holder's.
 */
export async function heartbeat(deps: LifecycleDeps, id: string, lease: Lease): Promise<boolean> {
  const rows = await deps.db.sql`
    UPDATE renders SET lease_expires_at = ${leaseEnd(deps.db.sql, lease)}
    WHERE id = ${id} AND lease_owner = ${lease.owner} AND status IN ('preparing', 'rendering')
    RETURNING id`;
  return announce(deps, id, rows.length === 1);
}

/**
 * Records a progress report. Status and progress only move forward; `durationSec` is set when
 * preparation finishes (the first report of the rendering phase carries it). `updatedAt` changes
 * only with the status. Returns false when the holder no longer holds the render; without a lease
 * (the operator, which mirrors the Render's status) any unfinished render takes the report.
 */
export async function reportProgress(
  deps: LifecycleDeps,
  id: string,
  lease: Lease | null,
  report: { phase: ActivePhase; progress: number; durationSec?: number | undefined },
): Promise<boolean> {
  const now = deps.now();
  let leftQueue: Date | undefined;
  const changed = await deps.db.sql.begin(async (tx) => {
    const row = await lockHeld(tx, id, lease);
    if (!row) return false;
    const status = advanceStatus(row.status, report.phase);
    // Without a lease (the operator) no claim marks the start: the first report out of the queue does.
    leftQueue = row.status === 'queued' && status !== 'queued' ? row.createdAt : undefined;
    const progress = advanceProgress(row.progress, report.phase, report.progress);
    const durationSec = report.durationSec ?? row.durationSec;
    await tx`
      UPDATE renders SET status = ${status}, progress = ${progress}, duration_sec = ${durationSec},
        updated_at = ${status === row.status ? row.updatedAt : now}
      WHERE id = ${id}`;
    return true;
  });
  if (changed && leftQueue) deps.observer?.claimed(id, secondsBetween(leftQueue, now), now);
  return announce(deps, id, changed);
}

/** The render locked for this transaction, if `lease` still holds it and it is not finished. */
async function lockHeld(tx: Queryable, id: string, lease: Lease | null): Promise<RenderRow | undefined> {
  const [row] = await tx<RenderRow[]>`
    SELECT * FROM renders WHERE id = ${id} ${lease ? tx`AND lease_owner = ${lease.owner}` : tx``} FOR UPDATE`;
  return row && !isTerminal(row.status) ? row : undefined;
}

async function enqueueWebhook(tx: Queryable, row: RenderRow, type: 'render.completed' | 'render.failed', now: Date) {
  if (!row.webhookUrl) return;
  await tx`
    INSERT INTO webhook_outbox (id, account_id, render_id, event_type, url, next_attempt_at, created_at)
    VALUES (${newId('msg', now.getTime())}, ${row.accountId}, ${row.id}, ${type}, ${row.webhookUrl}, ${now}, ${now})`;
}

/**
 * done: what the worker reported (`durationSec`, `outputKey`) recorded, and what it means decided
 * here: metering and price from the row (priceRender: full-size frame, drafts half, test mode
 * free), the reservation settled into the actual charge (never more than the balance holds),
 * `expiresAt` from the account's plan (retention), progress 100, and the render.completed outbox
 * row, all in one transaction. With a lease the holder must still hold the render; without one
 * (an executor that holds no lease: the operator) any unfinished render can complete. False when
 * it is finished already or the holder lost it.
 */
export async function complete(
  deps: LifecycleDeps,
  id: string,
  lease: Lease | null,
  output: CompletedOutput,
): Promise<boolean> {
  const now = deps.now();
  let charged = 0;
  const changed = await deps.db.sql.begin(async (tx) => {
    const row = await lockHeld(tx, id, lease);
    if (!row) return false;
    const [account] = await tx<{ creditBalance: number; plan: Plan }[]>`
      SELECT credit_balance, plan FROM accounts WHERE id = ${row.accountId} FOR UPDATE`;
    // The foreign key keeps the account while one of its renders exists.
    if (!account) throw new Error(`The account ${row.accountId} of render ${id} is missing`);
    const price = priceRender(row, output.durationSec);
    const due = Math.min(price.credits, Math.max(0, account.creditBalance));
    if (due > 0) {
      await tx`UPDATE accounts SET credit_balance = credit_balance - ${due}, updated_at = ${now} WHERE id = ${row.accountId}`;
      await tx`INSERT INTO credit_ledger (account_id, delta, reason, ref_id) VALUES (${row.accountId}, ${-due}, 'render', ${id})`;
    }
    const expiresAt = outputExpiry(account.plan, now);
    const [done] = await tx<RenderRow[]>`
      UPDATE renders SET status = 'done', progress = 100, duration_sec = ${output.durationSec},
        output_key = ${output.outputKey}, expires_at = ${expiresAt},
        metered_minutes = ${price.meteredMinutes}, charged_credits = ${due}, reserved_credits = 0,
        lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
      WHERE id = ${id} RETURNING *`;
    await enqueueWebhook(tx, done as RenderRow, 'render.completed', now);
    charged = due;
    return true;
  });
  if (changed) deps.observer?.completed(id, charged, now);
  return announce(deps, id, changed);
}

/**
 * failed: the error recorded (catalog code, message, the element's path where it applies),
 * nothing charged, the reservation released, and the render.failed outbox row. With a lease the
 * holder must still hold the render; without one (recovery) any non-terminal render can fail.
 */
export async function fail(deps: LifecycleDeps, id: string, lease: Lease | null, error: ErrorBody): Promise<boolean> {
  const now = deps.now();
  const changed = await deps.db.sql.begin(async (tx) => {
    if (!(await lockHeld(tx, id, lease))) return false;
    await failLocked(tx, id, error, now);
    return true;
  });
  if (changed) deps.observer?.failed(id, error.code, now);
  return announce(deps, id, changed);
}

/** The failing statement of fail() and cancel(), on a row this transaction has locked unfinished. */
async function failLocked(tx: Queryable, id: string, error: ErrorBody, now: Date): Promise<RenderRow> {
  const [failed] = await tx<RenderRow[]>`
    UPDATE renders SET status = 'failed', error = ${tx.json(error as never)}, reserved_credits = 0, charged_credits = 0,
      lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
    WHERE id = ${id} RETURNING *`;
  await enqueueWebhook(tx, failed as RenderRow, 'render.failed', now);
  return failed as RenderRow;
}

/** A RENDER_CANCELLED error: why the render was cancelled is its message. */
type CancelledError = ErrorBody & { code: 'RENDER_CANCELLED' };

/** The error of a render cancelled for `message`, its docsUrl under `publicBaseUrl`. */
export function cancelledError(publicBaseUrl: string, message: string): CancelledError {
  return { ...errorBody(publicBaseUrl, 'RENDER_CANCELLED', message), code: 'RENDER_CANCELLED' };
}

export interface CancelResult {
  /** This call ended the render; false when it had finished before (done, or failed: cancelled or not). */
  cancelled: boolean;
  /** The render as it is now. */
  render: RenderRow;
}

/**
 * Cancels a render that has not finished (queued, preparing or rendering), whoever holds it: it
 * fails as fail() fails one (the error recorded, nothing charged, the reservation released, the
 * render.failed outbox row) and its lease ends with it, so its holder's heartbeat, progress and
 * outcome are refused from now on (a late `complete` can never make it done). The one way a
 * render is cancelled: through the API, by deleting its Render (the operator), or because its
 * Render is gone (the API's resync). `owner` limits it to one account's renders of one key mode
 * (the API); undefined when there is no such render. A finished render is answered as it is.
 */
export async function cancel(
  deps: LifecycleDeps,
  id: string,
  error: CancelledError,
  owner?: Owner,
): Promise<CancelResult | undefined> {
  const now = deps.now();
  const result = await deps.db.sql.begin(async (tx): Promise<CancelResult | undefined> => {
    const [row] = await tx<RenderRow[]>`
      SELECT * FROM renders
      WHERE id = ${id} ${owner ? tx`AND account_id = ${owner.accountId} AND mode = ${owner.mode}` : tx``}
      FOR UPDATE`;
    if (!row) return undefined;
    if (isTerminal(row.status)) return { cancelled: false, render: row };
    return { cancelled: true, render: await failLocked(tx, id, error, now) };
  });
  if (result?.cancelled) deps.observer?.failed(id, error.code, now);
  announce(deps, id, result?.cancelled === true);
  return result;
}

/**
 * Hands a render back without failing it (a draining server): the lease is dropped so another
 * executor can claim it at once, and the attempt it used is returned.
 */
export async function release(deps: LifecycleDeps, id: string, lease: Lease): Promise<boolean> {
  const rows = await deps.db.sql`
    UPDATE renders SET lease_expires_at = clock_timestamp(), attempts = greatest(attempts - 1, 0)
    WHERE id = ${id} AND lease_owner = ${lease.owner} AND status IN ('preparing', 'rendering')
    RETURNING id`;
  return announce(deps, id, rows.length === 1);
}

/**
 * An attempt to run again (its worker crashed, or failed with a code the catalogue retries): the
 * lease is expired now (the attempt it used stays counted), so the render is claimed again at once
 * and runs from the start, or is failed once no attempts are left.
 */
export async function retryAttempt(deps: LifecycleDeps, id: string, lease: Lease): Promise<boolean> {
  const rows = await deps.db.sql`
    UPDATE renders SET lease_expires_at = clock_timestamp()
    WHERE id = ${id} AND lease_owner = ${lease.owner} AND status IN ('preparing', 'rendering')
    RETURNING id`;
  return announce(deps, id, rows.length === 1);
}

/**
 * Ids of queued renders created before `before`, oldest first: the ones an executor that is
 * handed each new render (the cluster's) may have missed, to hand over again. Ids only: this
 * runs every few seconds, and the whole row (the movie) is read only for one that was missed.
 */
export async function queuedBefore(deps: LifecycleDeps, before: Date, limit: number): Promise<string[]> {
  const rows = await deps.db.sql<{ id: string }[]>`
    SELECT id FROM renders WHERE status = 'queued' AND created_at < ${before}
    ORDER BY created_at, id LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** Where a render stands: what a decision about it reads. */
export type RenderState = Pick<RenderRow, 'status' | 'progress' | 'durationSec' | 'error' | 'updatedAt'>;

/**
 * Where the render stands (the operator reads it before each decision), or undefined when there
 * is no such render. Only these columns: a pass runs on every change, and a movie can be megabytes.
 */
export async function state(deps: LifecycleDeps, id: string): Promise<RenderState | undefined> {
  const [row] = await deps.db.sql<RenderState[]>`
    SELECT status, progress, duration_sec, error, updated_at FROM renders WHERE id = ${id}`;
  return row;
}

/** How many renders are in each status now (metrics read it at scrape time). */
export async function countByStatus(deps: Pick<LifecycleDeps, 'db'>): Promise<Map<string, number>> {
  const rows = await deps.db.sql<{ status: string; n: number }[]>`
    SELECT status, count(*)::int AS n FROM renders GROUP BY status`;
  return new Map(rows.map((r) => [r.status, r.n]));
}

/** Renders whose lease expired (on the database's clock) with no attempts left: the ids to fail with INTERNAL. */
export async function abandonedRenders(deps: LifecycleDeps, maxAttempts: number): Promise<string[]> {
  const rows = await deps.db.sql<{ id: string }[]>`
    SELECT id FROM renders
    WHERE status IN ('preparing', 'rendering') AND lease_expires_at <= ${dbNow(deps.db.sql)}
      AND attempts >= ${maxAttempts}`;
  return rows.map((r) => r.id);
}
