import { Resolver } from 'node:dns/promises';
import { AppError } from '../../lib/errors.ts';
import { isPrivateAddress, isPrivateHostLiteral } from '../../lib/net/address-policy.ts';

export interface WebhookUrlPolicy {
  /** ALLOW_PRIVATE_URLS: then any http(s) URL is accepted and no lookup is made. */
  allowPrivate: boolean;
  /** DNS servers ("host:port") asked instead of the system's; tests run their own. */
  dnsServers?: string[];
  /** The whole lookup gives up after this long (default 3 s) and the URL is accepted. */
  timeoutMs?: number;
}

/**
 * Refuses, at render creation, a webhook_url the dispatcher would refuse at delivery: a private
 * or loopback literal, a localhost name, or a name that resolves now to any private address.
 * Delivery still checks the address it connects to (guardedLookup), so this is an early answer
 * to the caller, not the guard: a name that does not resolve, or not in time, is accepted,
 * because DNS may be set up after the render is queued and a slow resolver must not fail a
 * request; if it then points somewhere private, delivery refuses it.
 *
 * The lookup goes through c-ares (dns.Resolver), not getaddrinfo: it is cancellable and does not
 * hold libuv's four threadpool threads, which slow names sent on purpose could otherwise starve.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('webhook_url is not a valid absolute URL');
  }
  if (policy.allowPrivate) return;
  if (isPrivateHostLiteral(url.hostname)) {
    throw refused(`webhook_url points at ${url.hostname}, a private or loopback address`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await resolveAll(host, policy);
  const hit = addresses.find((a) => isPrivateAddress(a));
  if (hit) throw refused(`webhook_url host ${url.hostname} resolves to ${hit}, a private or loopback address`);
}

function refused(message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { path: 'webhook_url' });
}

/** A and AAAA records of `host`; none when it does not resolve or the lookup runs out of time. */
async function resolveAll(host: string, policy: WebhookUrlPolicy): Promise<string[]> {
  const timeoutMs = policy.timeoutMs ?? 3000;
  const resolver = new Resolver({ timeout: Math.ceil(timeoutMs / 2), tries: 2 });
  if (policy.dnsServers) resolver.setServers(policy.dnsServers);
  const lookups = Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const settled = await Promise.race([lookups, deadline]);
    if (settled === 'late') return [];
    return settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
  } finally {
    clearTimeout(timer);
    resolver.cancel();
  }
}
