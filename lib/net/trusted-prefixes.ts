/**
 * TRUSTED_URL_PREFIXES: URLs the worker may fetch even where private addresses are refused (the
 * API's own asset links, which may live on a private network). Trust widens what a fetch may
 * reach, so a prefix is matched on the parsed URL, never as a string: `http://h:1` must not
 * trust `http://h:1@evil/`, nor `/assets` trust `/assets-evil`, nor `/assets/%2e%2e/` walk out.
 */
export interface TrustedPrefix {
  /** `http:` or `https:`. */
  protocol: string;
  /** WHATWG-normalised host name (lower case, IPv4 in dotted form, IPv6 in brackets). */
  hostname: string;
  /** The effective port, default ports included. */
  port: string;
  /** Normalised path; ending in `/` trusts what lies below it, else itself and below `path/`. */
  path: string;
}

/** Parses one prefix; throws an Error saying what is wrong with it. */
export function parseTrustedPrefix(raw: string): TrustedPrefix {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${JSON.stringify(raw)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${JSON.stringify(raw)} is not an http(s) URL`);
  }
  if (url.username || url.password) {
    throw new Error(`${JSON.stringify(raw)} has user info`);
  }
  // A query or fragment would suggest a string match; only scheme, host, port and path count.
  if (raw.includes('?') || raw.includes('#')) {
    throw new Error(`${JSON.stringify(raw)} has a query or fragment`);
  }
  return { protocol: url.protocol, hostname: url.hostname, port: effectivePort(url), path: url.pathname };
}

/** Parses a comma-separated list (the variable's format) or a list of prefixes. */
export function parseTrustedPrefixes(list: string | readonly string[] | undefined): TrustedPrefix[] {
  const items = typeof list === 'string' ? list.split(',') : (list ?? []);
  return items.filter((item) => item.trim() !== '').map(parseTrustedPrefix);
}

/** Why a TRUSTED_URL_PREFIXES value is unusable, or undefined when it is fine. */
export function trustedPrefixesProblem(list: string): string | undefined {
  try {
    parseTrustedPrefixes(list);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** True when `url` lies under one of `prefixes`. */
export function isTrustedUrl(url: URL, prefixes: readonly TrustedPrefix[]): boolean {
  // Credentials in a trusted-looking URL are how `http://trusted@evil/` tricks are written.
  if (url.username || url.password) return false;
  return prefixes.some((p) => matches(url, p));
}

function matches(url: URL, p: TrustedPrefix): boolean {
  if (url.protocol !== p.protocol || url.hostname !== p.hostname || effectivePort(url) !== p.port) return false;
  // `pathname` is already normalised: `.`, `..`, `%2e%2e` and backslashes are resolved.
  const path = url.pathname;
  let rest: string;
  if (p.path.endsWith('/')) {
    if (!path.startsWith(p.path)) return false;
    rest = path.slice(p.path.length);
  } else if (path === p.path) {
    rest = '';
  } else if (path.startsWith(`${p.path}/`)) {
    rest = path.slice(p.path.length + 1);
  } else {
    return false;
  }
  // An encoded slash or backslash stays in the path here but a server may decode it into `../`.
  return !/%2f|%5c/i.test(rest);
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}
