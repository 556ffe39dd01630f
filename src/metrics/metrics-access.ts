import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export interface MetricsRequest {
  /** The `Authorization` header as received. */
  authorization: string | undefined;
  /** Whether any header a proxy adds came (whatever its value): see `cameThroughProxy`. */
  forwarded: boolean;
  /** The TCP peer's address (never the address derived from proxy headers). */
  socketAddress: string | undefined;
}

export type MetricsVerdict = 'allow' | 'unauthorized' | 'forbidden';

/**
 * Headers a reverse proxy (nginx, Apache, HAProxy, Caddy, a CDN) adds when it relays a request.
 * A proxy on the same host connects from loopback, so any one of them means the request may come
 * from anywhere (SECURITY.md, metrics). Lower case, as Node gives header names.
 */
export const PROXY_HEADERS: readonly string[] = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'via',
];

/** Whether the request carries any header a proxy adds (`PROXY_HEADERS`), whatever its value. */
export function cameThroughProxy(headers: Readonly<Record<string, unknown>>): boolean {
  return PROXY_HEADERS.some((name) => headers[name] !== undefined);
}

/** 127.0.0.0/8, ::1 and the IPv4-mapped form of 127.0.0.0/8. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) {
    return false;
  }
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

/**
 * Who may read `GET /metrics` (contract 13.8). With METRICS_TOKEN: exactly `Bearer <token>`
 * (compared in constant time), from anywhere. Without it: only a loopback peer that did not come
 * through a proxy (any header of `PROXY_HEADERS` means a proxy relayed someone else's request).
 */
export function metricsVerdict(token: string | undefined, request: MetricsRequest): MetricsVerdict {
  if (token !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.authorization ?? '');
    return match && sameSecret(match[1], token) ? 'allow' : 'unauthorized';
  }
  return isLoopback(request.socketAddress) && !request.forwarded ? 'allow' : 'forbidden';
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
