import { AppError } from '../../../lib/errors.ts';
import { FetchRefusedError, safeFetch } from '../../../lib/net/safe-fetch.ts';
import { isTrustedUrl, type TrustedPrefix } from '../../../lib/net/trusted-prefixes.ts';

export interface FetchPolicy {
  /** ALLOW_PRIVATE_URLS: tests and self-hosted setups serving assets on the local network. */
  allowPrivate: boolean;
  /** Prefixes (the API's own asset links) fetched even when private addresses are refused. */
  trustedPrefixes?: readonly TrustedPrefix[];
  timeoutMs?: number;
  maxBytes?: number;
  /** Limit for video and audio sources (worker/prepare/media-file.ts), which are larger than images and fonts. */
  mediaMaxBytes?: number | undefined;
}

export interface FetchedAsset {
  bytes: Buffer;
  /** Media type from the data: URI or the Content-Type header, lower case, no parameters. */
  contentType: string;
}

const MAX_BYTES = 50 * 1024 * 1024;

/** Decodes a base64 (or percent-encoded) data: URI. */
function decodeDataUri(uri: string): FetchedAsset | undefined {
  const m = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(uri);
  if (!m) return undefined;
  const contentType = (m[1] || 'text/plain').toLowerCase();
  const isBase64 = (m[2] ?? '').split(';').includes('base64');
  const bytes = isBase64 ? Buffer.from(m[3]!, 'base64') : Buffer.from(decodeURIComponent(m[3]!), 'utf8');
  return { bytes, contentType };
}

/**
 * Fetches an asset of a document: data: URIs inline, http(s) through the SSRF-guarded fetch (10 s,
 * 50 MB, 3 redirects, private addresses refused and re-checked on every hop). `accept` checks the
 * media type; failures are ASSET_UNREACHABLE or ASSET_INVALID at the element's `path`.
 */
export async function fetchAsset(
  url: string,
  path: string,
  accept: (contentType: string) => boolean,
  policy: FetchPolicy,
  signal?: AbortSignal,
  /** Streams an http(s) body into this file (`bytes` is then empty): video and audio sources. */
  toFile?: string,
): Promise<FetchedAsset> {
  let asset: FetchedAsset;
  if (url.startsWith('data:')) {
    const decoded = decodeDataUri(url);
    if (!decoded) throw new AppError('ASSET_INVALID', 'The data: URI is malformed', { path });
    asset = decoded;
  } else {
    try {
      const res = await safeFetch(url, {
        allowPrivate: policy.allowPrivate,
        // Judged per hop: a trusted link that redirects elsewhere gets no trust for the target.
        isTrusted: (hop) => isTrustedUrl(hop, policy.trustedPrefixes ?? []),
        timeoutMs: policy.timeoutMs ?? 10_000,
        maxBytes: policy.maxBytes ?? MAX_BYTES,
        maxRedirects: 3,
        signal,
        ...(toFile ? { toFile } : {}),
      });
      if (res.status < 200 || res.status >= 300) {
        throw new AppError('ASSET_UNREACHABLE', `Fetching ${url} answered HTTP ${res.status}`, { path });
      }
      const header = res.headers['content-type'];
      const type = (Array.isArray(header) ? header[0] : header) ?? '';
      asset = { bytes: res.body, contentType: type.split(';')[0]!.trim().toLowerCase() };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof FetchRefusedError) {
        throw new AppError('ASSET_UNREACHABLE', `${err.message} (${url})`, { path, cause: err });
      }
      if (signal?.aborted) throw signal.reason;
      throw new AppError('ASSET_UNREACHABLE', `Fetching ${url} failed: ${(err as Error).message}`, {
        path,
        cause: err,
      });
    }
  }
  // Servers often send application/octet-stream for media; the decoder is the final judge then.
  if (asset.contentType !== 'application/octet-stream' && asset.contentType !== '' && !accept(asset.contentType)) {
    throw new AppError('ASSET_INVALID', `Unsupported content type ${asset.contentType} for ${truncate(url)}`, { path });
  }
  return asset;
}

const truncate = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s);
