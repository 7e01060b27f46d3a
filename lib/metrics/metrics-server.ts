import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** A health check: true (or resolves true) when healthy; a throw counts as unhealthy. */
type Probe = () => boolean | Promise<boolean>;

export interface MetricsServerOptions {
  registry: Registry;
  port: number;
  host?: string;
  /** Served at /healthz when given (200 or 503). */
  healthz?: Probe;
  /** Served at /readyz when given (200 or 503). */
  readyz?: Probe;
  /** A probe that has not answered after this long is a 503 (default 5 s): a hung database is not ready. */
  probeTimeoutMs?: number;
}

export interface MetricsServer {
  /** The port bound (the one asked for, or the one picked for port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * The metrics listener: plain node:http on its own port, apart from the API's, so an Ingress in
 * front of the API never exposes metrics. GET /metrics, and /healthz and /readyz where given; 404
 * for anything else.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { registry } = options;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method Not Allowed\n');
    if (path === '/metrics') {
      registry.metrics().then(
        (body) => send(res, 200, body, registry.contentType),
        (err: unknown) => send(res, 500, `collecting metrics failed: ${(err as Error).message}\n`),
      );
      return;
    }
    const probe = path === '/healthz' ? options.healthz : path === '/readyz' ? options.readyz : undefined;
    if (!probe) return send(res, 404, 'Not Found\n');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), options.probeTimeoutMs ?? 5_000);
    });
    Promise.race([Promise.resolve().then(probe), timeout])
      .finally(() => clearTimeout(timer))
      .then(
        (ok) => send(res, ok ? 200 : 503, ok ? 'ok\n' : 'not ready\n'),
        () => send(res, 503, 'not ready\n'),
      );
  });
  // Scrapes are short: an idle keep-alive connection must not hold close() up.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
