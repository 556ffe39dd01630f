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

function forbiddenV6(address: string): boolean {
  const g = ipv6Groups(address);
  const zeroPrefix = (count: number): boolean => g.slice(0, count).every((group) => group === 0);
  if (zeroPrefix(8)) {
    return true; // :: unspecified
  }
  if (zeroPrefix(7) && g[7] === 1) {
    return true; // ::1 loopback
  }
  if (zeroPrefix(5) && g[5] === 0xffff) {
    // ::ffff:a.b.c.d, an IPv4-mapped address: the IPv4 rules decide.
    return forbiddenV4(`${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`);
  }
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    return forbiddenV4(`${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`); // NAT64
  }
  return (
    (g[0] & 0xfe00) === 0xfc00 || // fc00::/7 unique local (private)
    (g[0] & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (g[0] & 0xffc0) === 0xfec0 || // fec0::/10 site-local (deprecated, private)
    (g[0] & 0xff00) === 0xff00 // multicast
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
