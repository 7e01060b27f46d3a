import { BlockList, isIP } from 'node:net';

/**
 * Addresses a server-side fetch must not reach unless private URLs are allowed: loopback,
 * RFC 1918 private, carrier-grade NAT, link-local (cloud metadata at 169.254.169.254 lives here),
 * unspecified, multicast, reserved, and their IPv6 counterparts. Without this, a movie's image
 * URL or a webhook URL could make the worker or API probe the cluster's internal network.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True when `address` (a literal IPv4 or IPv6 address) is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    // IPv4-mapped and -compatible forms (::ffff:10.0.0.1) are judged by their IPv4 address.
    const mapped = /^::(ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[2]) return blocked.check(mapped[2], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}
