import { BlockList, isIP } from 'node:net';

/**
 * Pure rules for webhook URLs (docs/events-and-webhooks.md, Address guard): the scheme, which addresses a webhook may reach
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

/** The IPv4 ranges a webhook may not reach (docs/events-and-webhooks.md, Address guard). */
const FORBIDDEN_V4: ReadonlyArray<readonly [string, number]> = [
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

/**
 * IPv6: only global unicast (2000::/3) is public, less the blocks inside it that are not an
 * ordinary host or that carry an IPv4 address a relay would reach (SECURITY.md, webhooks). The two
 * forms whose IPv4 address a host on the way reaches directly (IPv4-mapped `::ffff:0:0/96` and
 * the well-known NAT64 prefix `64:ff9b::/96`) are judged by the IPv4 ranges; every other form that
 * embeds an IPv4 address (IPv4-compatible `::/96`, IPv4-translated `::ffff:0:0:0/96`, 6to4
 * `2002::/16`, Teredo `2001::/32`, local NAT64 `64:ff9b:1::/48`) falls outside the reachable ranges
 * and is refused whatever it embeds.
 */
const REACHABLE_V6: ReadonlyArray<readonly [string, number]> = [
  ['2000::', 3], // global unicast
  ['::ffff:0:0', 96], // IPv4-mapped: judged by the IPv4 ranges below
  ['64:ff9b::', 96], // NAT64, well-known prefix: judged by the IPv4 ranges below
];

const FORBIDDEN_V6: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23], // IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: a relay reaches the embedded IPv4 address
  ['3fff::', 20], // documentation
  ['3ffe::', 16], // the returned 6bone test range
];

function blockListOf(ranges: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [base, prefix, family] of ranges) {
    list.addSubnet(base, prefix, family);
  }
  return list;
}

const reachableV6 = blockListOf(REACHABLE_V6.map(([base, prefix]) => [base, prefix, 'ipv6'] as const));

/** Each IPv4 range also in its IPv4-mapped and NAT64 forms: an IPv6 prefix 96 bits longer. */
const forbidden = blockListOf([
  ...FORBIDDEN_V4.flatMap(([base, prefix]) => [
    [base, prefix, 'ipv4'] as const,
    [`::ffff:${base}`, 96 + prefix, 'ipv6'] as const,
    [`64:ff9b::${base}`, 96 + prefix, 'ipv6'] as const,
  ]),
  ...FORBIDDEN_V6.map(([base, prefix]) => [base, prefix, 'ipv6'] as const),
]);

/** True for loopback, private, link-local, unspecified and other non-public addresses. */
export function isForbiddenAddress(address: string): boolean {
  // A zone (`fe80::1%eth0`) names an interface, not a host: the address alone is judged.
  const host = address.split('%')[0];
  switch (isIP(host)) {
    case 4:
      return forbidden.check(host, 'ipv4');
    case 6:
      return !reachableV6.check(host, 'ipv6') || forbidden.check(host, 'ipv6');
    default:
      return true;
  }
}
