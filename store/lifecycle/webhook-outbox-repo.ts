import type { Queryable, Sql } from '../database.ts';
import { WEBHOOK_RETRY_WINDOW_MS } from './transitions.ts';

export interface OutboxRow {
  id: string;
  accountId: string;
  renderId: string;
  eventType: 'render.completed' | 'render.failed';
  url: string;
  payload: string | null;
  attempts: number;
  createdAt: Date;
  webhookSecret: string | null;
}

/**
 * Claims due deliveries: each row's next attempt is pushed `leaseMs` ahead inside the claiming
 * transaction, so a second dispatcher (or process) skips it while this one delivers.
 */
export async function claimDue(sql: Sql, now: Date, limit: number, leaseMs: number): Promise<OutboxRow[]> {
  return sql.begin(async (tx) => {
    const rows = await tx<OutboxRow[]>`
      SELECT o.*, a.webhook_secret FROM webhook_outbox o JOIN accounts a ON a.id = o.account_id
      WHERE o.delivered_at IS NULL AND o.gave_up_at IS NULL AND o.next_attempt_at <= ${now}
      ORDER BY o.next_attempt_at, o.id LIMIT ${limit}
      FOR UPDATE OF o SKIP LOCKED`;
    if (rows.length > 0) {
      await tx`UPDATE webhook_outbox SET next_attempt_at = ${new Date(now.getTime() + leaseMs)}
        WHERE id IN ${tx(rows.map((r) => r.id))}`;
    }
    return rows;
  }) as Promise<OutboxRow[]>;
}

/** Freezes the payload at the first attempt, so every retry carries the same signed bytes. */
export async function freezePayload(sql: Queryable, id: string, payload: string): Promise<string> {
  const [row] = await sql<{ payload: string }[]>`
    UPDATE webhook_outbox SET payload = coalesce(payload, ${payload}) WHERE id = ${id} RETURNING payload`;
  return row?.payload ?? payload;
}

/** What an attempt left the delivery as: delivered, to be tried again, or given up. */
export type DeliveryOutcome = 'delivered' | 'retry' | 'gave_up';

export async function recordAttempt(
  sql: Queryable,
  row: OutboxRow,
  outcome: { delivered: boolean; stop: boolean; status: number | null; error: string | null; nextAttemptAt: Date },
  now: Date,
): Promise<DeliveryOutcome> {
  const expired = now.getTime() - row.createdAt.getTime() >= WEBHOOK_RETRY_WINDOW_MS;
  const gaveUp = !outcome.delivered && (outcome.stop || expired);
  await sql`
    UPDATE webhook_outbox SET attempts = attempts + 1, last_status = ${outcome.status}, last_error = ${outcome.error},
      delivered_at = ${outcome.delivered ? now : null},
      gave_up_at = ${gaveUp ? now : null},
      next_attempt_at = ${outcome.nextAttemptAt}
    WHERE id = ${row.id}`;
  return outcome.delivered ? 'delivered' : gaveUp ? 'gave_up' : 'retry';
}

/** Deliveries still owed (neither delivered nor given up): the outbox backlog. */
export async function pendingCount(sql: Queryable): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM webhook_outbox WHERE delivered_at IS NULL AND gave_up_at IS NULL`;
  return row?.n ?? 0;
}

/**
 * Deletes up to `limit` deliveries that finished (delivered or given up) before `before` and
 * answers how many; deliveries still owed are never touched, however old.
 */
export async function deleteFinishedDeliveries(sql: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await sql`
    DELETE FROM webhook_outbox WHERE id IN (
      SELECT id FROM webhook_outbox
      WHERE (delivered_at IS NOT NULL OR gave_up_at IS NOT NULL) AND coalesce(delivered_at, gave_up_at) < ${before}
      LIMIT ${limit})
    RETURNING 1`;
  return rows.length;
}

/** The account's signing secret, created on first use by `create` (a concurrent creator wins). */
export async function ensureWebhookSecret(sql: Queryable, accountId: string, create: () => string): Promise<string> {
  const [row] = await sql<{ webhookSecret: string }[]>`
    UPDATE accounts SET webhook_secret = coalesce(webhook_secret, ${create()}) WHERE id = ${accountId}
    RETURNING webhook_secret`;
  if (!row) throw new Error(`No account ${accountId}`);
  return row.webhookSecret;
}

export async function rotateWebhookSecret(sql: Queryable, accountId: string, secret: string): Promise<boolean> {
  const rows = await sql`UPDATE accounts SET webhook_secret = ${secret} WHERE id = ${accountId} RETURNING id`;
  return rows.length === 1;
}
