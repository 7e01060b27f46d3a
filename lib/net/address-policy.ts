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
  // IPv4-compatible (::a.b.c.d, deprecated and never routed); also covers :: and ::1.
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // NAT64, well-known and local-use: the gateway would connect to the embedded IPv4 address.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // Teredo tunnels to an IPv4 address chosen by whoever wrote the address.
  ['2001::', 32],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True when `address` (a literal IPv4 or IPv6 address) is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIPv4(address);
    if (v4 !== undefined && blocked.check(v4, 'ipv4')) return true;
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/** `localhost`, `localhost.` and `*.localhost` always mean this machine (RFC 6761). */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * True when a URL's host is known to be private without a DNS lookup: a private literal address
 * or a localhost name. Pass `URL.hostname`: WHATWG parsing has already turned 2130706433,
 * 0x7f.1 and 0177.0.0.1 into 127.0.0.1 and ::127.0.0.1 into ::7f00:1, so no spelling slips past.
 */
export function isPrivateHostLiteral(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return isPrivateAddress(bare);
  return isLocalhostName(bare);
}

/**
 * The IPv4 address an IPv6 address stands for, where the connection would really go to it:
 * IPv4-mapped (::ffff:a.b.c.d, also written ::ffff:7f00:1), IPv4-translated (::ffff:0:a.b.c.d)
 * and 6to4 (2002:AABB:CCDD::/48).
 */
function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 literal (dotted tail and zone id allowed). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  return groups.map((x) => Number.parseInt(x, 16));
}
