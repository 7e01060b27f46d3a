import http from 'node:http';
import https from 'node:https';
import type { KubeAccess } from './access.ts';

/**
 * An answer of the apiserver other than 2xx, or a watch ERROR event. `statusCode` is the HTTP
 * status (410 Gone, 409 Conflict, ...); `reason` the Status object's reason (Expired, Conflict).
 */
export class KubeApiError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

export interface KubeRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the cluster's server, e.g. `/api/v1/namespaces/ns/configmaps`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Content type of the body: application/json by default; a PATCH names its patch type. */
  contentType?: 'application/json' | 'application/merge-patch+json' | 'application/strategic-merge-patch+json';
  /** Aborts the request: it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The whole exchange, connection to last byte; a frozen connection fails instead of hanging. */
  timeoutMs?: number;
}

/**
 * One JSON request to the apiserver with the KubeAccess's credentials and TLS settings (client
 * certificates, tokens, exec plugins: `applyToHTTPSOptions` runs per request, so tokens refresh).
 * Written on node:http(s) rather than the generated clients so that every request can be aborted
 * and bounded in time, which leader election and the informer need.
 */
export async function kubeRequest<T>(kc: KubeAccess, req: KubeRequest): Promise<T> {
  const text = await new Promise<string>((resolve, reject) => {
    open(kc, req, reject, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(body);
        else reject(apiErrorFrom(status, body));
      });
    });
  });
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Opens a streaming GET (a watch) and calls `onLine` for every newline-terminated line of the
 * body. Resolves when the server ends the stream, rejects on a non-2xx answer, a broken
 * connection or when `signal` aborts. There is no idle timeout here: the caller owns that.
 */
export function kubeStream(kc: KubeAccess, req: KubeRequest, onLine: (line: string) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    open(kc, req, reject, (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => reject(apiErrorFrom(status, Buffer.concat(chunks).toString('utf8'))));
        return;
      }
      res.setEncoding('utf8');
      let pending = '';
      res.on('data', (chunk: string) => {
        pending += chunk;
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (line.trim()) {
            try {
              onLine(line);
            } catch (err) {
              res.destroy(err as Error);
              return;
            }
          }
          nl = pending.indexOf('\n');
        }
      });
      res.on('error', reject);
      res.on('end', () => resolve());
      // A close before the end: the peer went away mid-body (an apiserver killed under us).
      res.on('close', () => {
        if (!res.complete) reject(new Error('the watch stream was cut before its end'));
      });
    });
  });
}

function open(
  kc: KubeAccess,
  req: KubeRequest,
  reject: (err: unknown) => void,
  onResponse: (res: http.IncomingMessage) => void,
): void {
  const cluster = kc.getCurrentCluster();
  if (!cluster) {
    reject(new Error('the KubeAccess has no current cluster: set current-context'));
    return;
  }
  if (req.signal?.aborted) {
    reject(req.signal.reason);
    return;
  }
  const url = new URL(cluster.server.replace(/\/+$/, '') + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
  const opts: https.RequestOptions = { headers: {} };
  kc.applyToHTTPSOptions(opts).then(
    () => {
      if (req.signal?.aborted) {
        reject(req.signal.reason);
        return;
      }
      const headers: http.OutgoingHttpHeaders = {
        ...(opts.headers as http.OutgoingHttpHeaders),
        accept: 'application/json',
      };
      if (payload) {
        headers['content-type'] = req.contentType ?? 'application/json';
        headers['content-length'] = payload.length;
      }
      const send = url.protocol === 'https:' ? https.request : http.request;
      const r = send(url, { ...opts, method: req.method ?? 'GET', headers });
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        cleanup();
        r.destroy();
        reject(err);
      };
      const onAbort = () => fail(req.signal?.reason ?? new Error('request aborted'));
      const timer =
        req.timeoutMs === undefined
          ? undefined
          : setTimeout(
              () => fail(new Error(`${req.method ?? 'GET'} ${req.path} timed out after ${req.timeoutMs} ms`)),
              req.timeoutMs,
            );
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });
      r.on('error', fail);
      r.on('response', (res) => {
        res.on('close', cleanup);
        // Errors after the response started reach the caller through `res` handlers; `fail`
        // additionally tears the socket down on abort or timeout.
        onResponse(res);
        res.on('error', (err) => fail(err));
        res.on('end', () => {
          settled = true;
          cleanup();
        });
      });
      r.end(payload);
    },
    (err) => reject(err),
  );
}

function apiErrorFrom(status: number, body: string): KubeApiError {
  try {
    const s = JSON.parse(body) as { message?: string; reason?: string; code?: number };
    return new KubeApiError(s.message ?? `HTTP ${status}`, s.code ?? status, s.reason);
  } catch {
    return new KubeApiError(`HTTP ${status}: ${body.slice(0, 200)}`, status);
  }
}
