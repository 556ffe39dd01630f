import { isIP } from 'node:net';

/**
 * Pure rules for webhook URLs (contract 13.6): the scheme, which addresses a webhook may reach
 * (the SSRF guard), and the masked form shown by the API.
 */

/** The URL if it is an absolute http(s) URL naming a host, without credentials; else undefined. */
export function parseWebhookUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname) {
    return undefined;
  }
  return url;
}

/** The host to resolve: IPv6 literals lose their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** `https://example.org:8443/…` — scheme, host and port; path and query masked. */
export function maskUrl(value: string): string {
  try {
    const url = new URL(value);
    const rest = `${url.pathname}${url.search}`;
    return `${url.protocol}//${url.host}${rest === '/' || rest === '' ? '/' : '/…'}`;
  } catch {
    return '…';
  }
}

function ipv4Number(address: string): number {
  return address.split('.').reduce((total, part) => total * 256 + Number(part), 0);
}

const FORBIDDEN_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (shared address space)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function forbiddenV4(address: string): boolean {
  const value = ipv4Number(address);
  return FORBIDDEN_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = ipv4Number(base);
    return value >= start && value < start + size;
  });
}

/** The eight 16-bit groups of an IPv6 address (with an embedded IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4Number(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${(Math.floor(n / 65536)).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.map((group) => parseInt(group, 16));
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedV4(g: number[]): string {
  return `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
}

/**
 * IPv6: only global unicast (2000::/3) is public, less the blocks inside it that are not an
 * ordinary host or that carry an IPv4 address a relay would reach (SECURITY.md, webhooks). The two
 * forms whose IPv4 address a host on the way reaches directly (IPv4-mapped `::ffff:0:0/96` and
 * the well-known NAT64 prefix `64:ff9b::/96`) are decoded and judged by the IPv4 rules; every
 * other form that embeds an IPv4 address (IPv4-compatible `::/96`, IPv4-translated
 * `::ffff:0:0:0/96`, 6to4 `2002::/16`, Teredo `2001::/32`, local NAT64 `64:ff9b:1::/48`) falls
 * outside the allowed ranges and is refused whatever it embeds.
 */
function forbiddenV6(address: string): boolean {
  const g = ipv6Groups(address);
  if (g.length !== 8 || g.some((group) => !Number.isInteger(group) || group < 0 || group > 0xffff)) {
    return true;
  }
  const zeroPrefix = (count: number): boolean => g.slice(0, count).every((group) => group === 0);
  if (zeroPrefix(5) && g[5] === 0xffff) {
    return forbiddenV4(embeddedV4(g)); // ::ffff:a.b.c.d, IPv4-mapped
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) {
    return forbiddenV4(embeddedV4(g)); // 64:ff9b::a.b.c.d, NAT64 (well-known prefix)
  }
  if ((g[0] & 0xe000) !== 0x2000) {
    return true; // outside 2000::/3: loopback, unspecified, IPv4-compatible, unique/link/site-local, multicast, …
  }
  return (
    (g[0] === 0x2001 && g[1] < 0x0200) || // 2001::/23 IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID)
    (g[0] === 0x2001 && g[1] === 0x0db8) || // 2001:db8::/32 documentation
    g[0] === 0x2002 || // 2002::/16 6to4: a relay reaches the embedded IPv4 address
    (g[0] === 0x3fff && g[1] < 0x1000) || // 3fff::/20 documentation
    g[0] === 0x3ffe // 3ffe::/16, the returned 6bone test range
  );
}

/** True for loopback, private, link-local, unspecified and other non-public addresses. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address.split('%')[0]);
  if (family === 4) {
    return forbiddenV4(address);
  }
  if (family === 6) {
    return forbiddenV6(address);
  }
  return true;
}
