import { jitteredDelay, LOOP_BACKOFF } from '../../lib/backoff.ts';
import type { Logger } from '../../lib/logger.ts';
import { FetchRefusedError, safeFetch } from '../../lib/net/safe-fetch.ts';
import { newWebhookSecret, signWebhook } from '../../lib/webhooks/signature.ts';
import type { Database } from '../../store/database.ts';
import { webhookBackoffMs } from '../../store/lifecycle/transitions.ts';
import * as outbox from '../../store/lifecycle/webhook-outbox-repo.ts';
import { getRenderById } from '../../store/renders-repo.ts';
import { type OutputLinkSigner, renderResource } from '../renders/render-resource.ts';

export interface WebhookDispatcherOptions {
  db: Database;
  /** Signs the payload's outputUrl, as GET /v1/renders/{id} shows it. */
  links: OutputLinkSigner;
  logger: Logger;
  /** ALLOW_PRIVATE_URLS: deliveries to loopback and private networks (tests, on-prem receivers). */
  allowPrivate: boolean;
  now?: () => Date;
  /** Told how each attempt ended (metrics). */
  onAttempt?: (outcome: outbox.DeliveryOutcome) => void;
  pollMs?: number;
  timeoutMs?: number;
  batch?: number;
}

/**
 * Delivers render.completed / render.failed from the Postgres outbox: at least once, signed per
 * Standard Webhooks with the account's secret, 10 s timeout, exponential backoff for 24 hours.
 * A 2xx is delivered; 410 Gone stops; anything else is retried.
 */
export class WebhookDispatcher {
  private readonly now: () => Date;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly opts: WebhookDispatcherOptions) {
    this.now = opts.now ?? (() => new Date());
  }

  start(): void {
    const pollMs = this.opts.pollMs ?? 1_000;
    let failures = 0;
    const tick = () => {
      if (this.stopped) return;
      let delay = pollMs;
      this.running = this.deliverDue()
        .then(() => {
          failures = 0;
        })
        .catch((err: unknown) => {
          // A lost database: back off (0.5 s doubling to 10 s); due events wait in the outbox.
          delay = Math.max(pollMs, jitteredDelay(LOOP_BACKOFF, failures++));
          this.opts.logger.error({ err, retryInMs: delay }, 'webhook dispatch failed');
        })
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, delay);
        });
    };
    tick();
  }

  /** Delivers every due event once; returns how many were attempted. Tests call it directly. */
  async deliverDue(): Promise<number> {
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    const due = await outbox.claimDue(this.opts.db.sql, this.now(), this.opts.batch ?? 20, timeoutMs * 3);
    await Promise.all(due.map((row) => this.deliver(row, timeoutMs)));
    return due.length;
  }

  private async deliver(row: outbox.OutboxRow, timeoutMs: number): Promise<void> {
    const { sql } = this.opts.db;
    const payload = row.payload ?? (await outbox.freezePayload(sql, row.id, await this.buildPayload(row)));
    const secret = row.webhookSecret ?? (await outbox.ensureWebhookSecret(sql, row.accountId, newWebhookSecret));
    const headers = signWebhook(secret, row.id, this.now().getTime() / 1000, payload);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await safeFetch(row.url, {
        allowPrivate: this.opts.allowPrivate,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Framewright-Webhooks/1', ...headers },
        body: payload,
        timeoutMs,
        maxBytes: 64 * 1024,
        // Redirects are not followed: a receiver moved elsewhere must update its URL.
        maxRedirects: 0,
      });
      status = res.status;
    } catch (err) {
      error = err instanceof FetchRefusedError ? err.message : String(err);
    }
    const delivered = status !== null && status >= 200 && status < 300;
    const stop = status === 410 || (error !== null && /private or loopback/.test(error));
    const now = this.now();
    const outcome = await outbox.recordAttempt(
      sql,
      row,
      {
        delivered,
        stop,
        status,
        error,
        nextAttemptAt: new Date(now.getTime() + webhookBackoffMs(row.attempts + 1)),
      },
      now,
    );
    this.opts.onAttempt?.(outcome);
    this.opts.logger.info(
      { webhookId: row.id, renderId: row.renderId, status, error, attempt: row.attempts + 1, delivered },
      'webhook attempt',
    );
  }

  private async buildPayload(row: outbox.OutboxRow): Promise<string> {
    const render = await getRenderById(this.opts.db.sql, row.renderId);
    if (!render) throw new Error(`Render ${row.renderId} of webhook ${row.id} is missing`);
    return JSON.stringify({
      id: row.id,
      type: row.eventType,
      createdAt: row.createdAt.toISOString(),
      data: renderResource(render, this.opts.links),
    });
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
