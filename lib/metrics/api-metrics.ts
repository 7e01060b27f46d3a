import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DrawingMetrics } from './drawing-metrics.ts';
import { RenderMetrics } from './render-metrics.ts';

/** Where the scrape-time gauges read the database (store/lifecycle). */
export interface ApiMetricsSources {
  /** Renders per status now: `SELECT status, count(*) FROM renders GROUP BY status`. */
  rendersByStatus(): Promise<Map<string, number>>;
  /** Webhook deliveries neither delivered nor given up. */
  outboxBacklog(): Promise<number>;
}

/** Every status a render can be in: a status with no render is reported as 0, not left out. */
const RENDER_STATES = ['queued', 'preparing', 'rendering', 'done', 'failed'] as const;

const HTTP_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The API process's series. Counters of events count where the event commits; the render and
 * outbox gauges are read from the database at scrape time, so they never drift (every API replica
 * reports the same value: aggregate them with max, not sum).
 */
export class ApiMetrics {
  readonly render: RenderMetrics;
  /** Which GL the in-process executor's workers draw with. */
  readonly drawing: DrawingMetrics;
  readonly httpDuration: Histogram<'route' | 'method' | 'status_code'>;
  readonly rendersCreated: Counter;
  readonly webhookDeliveries: Counter<'outcome'>;
  readonly scriptGenerations: Counter<'outcome'>;
  readonly retentionRemoved: Counter<'kind'>;
  readonly previews: Counter<'outcome'>;
  readonly previewSeconds: Histogram;

  constructor(
    readonly registry: Registry,
    sources: ApiMetricsSources,
  ) {
    const registers = [registry];
    this.render = new RenderMetrics(registry);
    this.drawing = new DrawingMetrics(registry);
    this.httpDuration = new Histogram({
      name: 'framewright_http_request_duration_seconds',
      help: 'HTTP request duration, by route pattern (unmatched for none), method and status code.',
      labelNames: ['route', 'method', 'status_code'] as const,
      buckets: HTTP_SECONDS,
      registers,
    });
    this.rendersCreated = new Counter({
      name: 'framewright_renders_created_total',
      help: 'Renders accepted (committed as queued and handed to the executor).',
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'framewright_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retry, gave_up).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.scriptGenerations = new Counter({
      name: 'framewright_script_generations_total',
      help: 'Script generations (POST /v1/scripts model calls), by outcome (success, llm_failed, error).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.previews = new Counter({
      name: 'framewright_previews_total',
      help: 'Live previews asked for (POST /v1/previews), by outcome (prepared, cached, refused: the per-account limit, failed).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.previewSeconds = new Histogram({
      name: 'framewright_preview_prepare_seconds',
      help: "Seconds a fresh live preview took to prepare (the render's prepare step in the API's preview worker).",
      buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers,
    });
    this.retentionRemoved = new Counter({
      name: 'framewright_retention_removed_total',
      help: 'What the retention sweeper removed, by kind (output, work_object, idempotency_key, webhook_delivery).',
      labelNames: ['kind'] as const,
      registers,
    });
    new Gauge({
      name: 'framewright_renders',
      help: 'Renders in each state now, read from the database at scrape time.',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const counts = await sources.rendersByStatus().catch(() => undefined);
        this.reset();
        // A database that cannot answer leaves the series out: absent, not a false zero.
        if (!counts) return;
        for (const state of RENDER_STATES) this.set({ state }, counts.get(state) ?? 0);
      },
    });
    new Gauge({
      name: 'framewright_webhook_outbox_backlog',
      help: 'Webhook deliveries owed (neither delivered nor given up), read from the outbox at scrape time.',
      registers,
      async collect() {
        const n = await sources.outboxBacklog().catch(() => undefined);
        this.reset();
        if (n !== undefined) this.set(n);
      },
    });
  }

  /** One observation per response (the onResponse hook); `route` is the pattern, never the URL. */
  observeRequest(route: string | undefined, method: string, statusCode: number, elapsedMs: number): void {
    this.httpDuration.observe({ route: route ?? 'unmatched', method, status_code: statusCode }, elapsedMs / 1000);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The API's Prometheus series (lib/metrics/api-metrics.ts). */
    metrics: ApiMetrics;
  }
}
