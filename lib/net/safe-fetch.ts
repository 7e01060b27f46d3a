import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import { open, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isPrivateAddress, isPrivateHostLiteral } from './address-policy.ts';

export class FetchRefusedError extends Error {
  override name = 'FetchRefusedError';
  constructor(
    message: string,
    readonly reason: 'private-address' | 'scheme' | 'redirects' | 'too-large' | 'timeout' | 'status' | 'network',
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  /** Reaching loopback and private networks is refused unless this is true (ALLOW_PRIVATE_URLS). */
  allowPrivate: boolean;
  /**
   * Hops this says yes to may reach private addresses even when `allowPrivate` is false. Asked
   * for every hop on its own: a trusted URL must not lend its trust to where it redirects.
   */
  isTrusted?: (url: URL) => boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /**
   * Streams a 2xx response's body into this file instead of memory (large media: memory stays a
   * chunk, not the file); `body` is then empty. Other statuses are read into `body` as usual.
   */
  toFile?: string;
}

export interface SafeFetchResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  url: string;
}

/**
 * A DNS lookup that refuses private addresses. It runs at connect time, so the address checked is
 * the address used: a hostname that resolves to a public address for a check and to 127.0.0.1 a
 * moment later (DNS rebinding) cannot slip through.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) {
      const e: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to ${refused.address}, a private or loopback address`,
      );
      e.code = 'EPRIVATEADDRESS';
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}

/**
 * Fetches an http(s) URL for the server's own use (assets, webhooks) with a timeout, a size cap,
 * a redirect limit and, by default, no access to private addresses, checked on every hop.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 50 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 3;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let current = url;
  for (let hop = 0; ; hop++) {
    const parsed = new URL(current);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new FetchRefusedError(`Only http and https URLs can be fetched; got ${parsed.protocol}`, 'scheme');
    }
    const allowPrivate = options.allowPrivate || options.isTrusted?.(parsed) === true;
    // Refused before any connection; names are checked again by guardedLookup at connect time.
    if (!allowPrivate && isPrivateHostLiteral(parsed.hostname)) {
      throw new FetchRefusedError(`${parsed.hostname} is a private or loopback address`, 'private-address');
    }
    let res: IncomingMessage;
    try {
      res = await send(parsed, options, allowPrivate, signal);
    } catch (err) {
      throw mapError(err, current, timeoutMs, timeout, options.signal);
    }
    const location = res.headers.location;
    if (res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400 && location) {
      res.resume();
      if (hop >= maxRedirects) {
        throw new FetchRefusedError(`More than ${maxRedirects} redirects fetching ${url}`, 'redirects');
      }
      current = new URL(location, current).toString();
      continue;
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      throw new FetchRefusedError(`${current} is ${declared} bytes; the limit is ${maxBytes}`, 'too-large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const ok = res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300;
    const file = ok && options.toFile ? await open(options.toFile, 'w') : undefined;
    try {
      for await (const chunk of res) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.destroy();
          throw new FetchRefusedError(`${current} exceeds the limit of ${maxBytes} bytes`, 'too-large');
        }
        if (file) await file.write(chunk as Buffer);
        else chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (file) await file.close().then(() => rm(options.toFile!, { force: true }));
      if (err instanceof FetchRefusedError) throw err;
      throw mapError(err, current, timeoutMs, timeout, options.signal);
    }
    await file?.close();
    return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), url: current };
  }
}

function send(
  url: URL,
  options: SafeFetchOptions,
  allowPrivate: boolean,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const requestFn = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = requestFn(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      signal,
      // A fresh connection per request, resolved through the guard: no pooled socket can carry
      // a request to an address that was never checked.
      agent: false,
      ...(allowPrivate ? {} : { lookup: guardedLookup as never }),
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(options.body);
  });
}

function mapError(
  err: unknown,
  url: string,
  timeoutMs: number,
  timeout: AbortSignal,
  callerSignal: AbortSignal | undefined,
): Error {
  // The caller's own abort is not a fetch failure: hand back its reason untouched.
  if (callerSignal?.aborted) return callerSignal.reason instanceof Error ? callerSignal.reason : new Error('aborted');
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code;
  if (code === 'EPRIVATEADDRESS') {
    return new FetchRefusedError((e.cause ?? e).message, 'private-address');
  }
  if (timeout.aborted) {
    return new FetchRefusedError(`Fetching ${url} timed out after ${timeoutMs} ms`, 'timeout');
  }
  return new FetchRefusedError(`Fetching ${url} failed: ${(e.cause ?? e).message}`, 'network');
}
