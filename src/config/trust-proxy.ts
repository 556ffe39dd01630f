import { isIP } from 'node:net';

/** What Fastify's `trustProxy` receives: off, a hop count, or the proxies' addresses/CIDRs. */
export type TrustProxySetting = false | number | string[];

/**
 * `TRUST_PROXY` (docs/deployment.md, Behind a proxy) is a hop count or a comma-separated list of addresses/CIDRs;
 * unset, empty, `false` or `0` mean off. `true` (trust every hop, so any client picks its own
 * address with X-Forwarded-For) and anything else are refused: returns the reason, or the setting.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxySetting | { error: string } {
  const value = (raw ?? '').trim();
  if (value === '' || value.toLowerCase() === 'false' || value === '0') {
    return false;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 32 ? hops : { error: 'TRUST_PROXY hop count must be at most 32' };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isAddressOrCidr(entry));
  if (bad !== undefined) {
    return {
      error: `TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses/CIDRs (got "${bad.slice(0, 64)}"; "true" is refused: it would let any client choose its own address)`,
    };
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined) {
    return false;
  }
  const family = isIP(address);
  if (family === 0) {
    return false;
  }
  if (prefix === undefined) {
    return true;
  }
  if (!/^\d{1,3}$/.test(prefix)) {
    return false;
  }
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The setting in the form Nest's Fastify adapter accepts: a hop count becomes the function Fastify
 * itself builds from a number (trust the first `hops` proxies, counted from this server).
 */
export function fastifyTrustProxy(setting: TrustProxySetting): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') {
    return setting;
  }
  return (_address, hop) => hop < setting;
}
