import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { isDocsPath } from '../common/http/envelope.hook';
import type { AppConfig } from '../config/app-config';
import { RequestRateLimiter } from './request-rate-limiter';

/**
 * The security headers of every API response (docs/design-and-performance.md, "Only public APIs
 * of libraries"): the set helmet 8 sends by default, with our CSP, referrer policy and HSTS, written
 * out so that none is computed per response and no Express middleware runs against a fake response.
 * The Swagger UI under /docs gets DOCS_CSP instead (its own scripts, inline styles, data: icons).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // The API answers JSON only: nothing may be loaded, framed or submitted from its responses.
  'content-security-policy': "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
  // No window opened from a response shares a browsing context group with it.
  'cross-origin-opener-policy': 'same-origin',
  // Another site cannot embed a response (an image or script tag reading a user's data).
  'cross-origin-resource-policy': 'same-origin',
  // Asks the browser to give the origin its own agent cluster (process isolation).
  'origin-agent-cluster': '?1',
  // Links in the console send no URL (which may carry a query with an identifier) to other sites.
  'referrer-policy': 'no-referrer',
  // HTTPS only, for a year, subdomains included.
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  // The browser trusts the content type as sent (no sniffing JSON into HTML).
  'x-content-type-options': 'nosniff',
  // No DNS prefetch of names found in responses.
  'x-dns-prefetch-control': 'off',
  // Old Internet Explorer: a download is never opened in the site's context.
  'x-download-options': 'noopen',
  // Older browsers that do not read the CSP's frame-ancestors.
  'x-frame-options': 'SAMEORIGIN',
  // No Flash or PDF cross-domain policy files.
  'x-permitted-cross-domain-policies': 'none',
  // The legacy XSS auditor off: it opened more holes than it closed.
  'x-xss-protection': '0',
};

export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/**
 * Headers that a part of the URL space lays over the API's own, e.g. the console page's CSP or
 * the maps' public CORS headers (docs/console-and-maps.md). The app factory hands them over, so
 * this cross-cutting module knows no feature; the first part whose `matches` is true wins.
 */
export interface PathHeaders {
  matches(url: string | undefined): boolean;
  headers: Readonly<Record<string, string>>;
}

/** CORS_ORIGINS: comma-separated origins (`https://club.example.org`); `*` allows any origin. */
export function parseCorsOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '');
}

function corsOptions(origins: string[]): FastifyCorsOptions {
  const allowed = new Set(origins);
  const any = allowed.has('*');
  return {
    // An origin outside the list gets no CORS headers at all (and its preflight a 404).
    origin: (origin, callback) => callback(null, origin !== undefined && (any || allowed.has(origin)) ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-API-Key', 'X-Request-Id', 'X-reCAPTCHA-Token'],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
    // Cross-origin callers send credentials as parameters or headers; the console's session cookie is same-origin only.
    credentials: false,
    maxAge: 600,
  };
}

/**
 * Security headers, `x-request-id` and CORS, registered on the bare Fastify instance before Nest
 * adds its routes, so they cover every response (errors and 404s included). One onSend hook sets
 * all of a response's fixed headers: each hook is a step of every request.
 */
export async function registerHttpHygiene(fastify: FastifyInstance, config: AppConfig, parts: readonly PathHeaders[] = []): Promise<void> {
  // The headers do not depend on the request: one object, set as a whole by one hook
  // (@fastify/helmet builds a new middleware per request: ~3% of a read's CPU).
  const apiHeaders = SECURITY_HEADERS;
  const docsHeaders = { ...apiHeaders, 'content-security-policy': DOCS_CSP };
  // Merged once here, not per response.
  const partHeaders = parts.map((part) => ({ matches: part.matches, headers: { ...apiHeaders, ...part.headers } }));
  const headersFor = (url: string): Record<string, string> => partHeaders.find((part) => part.matches(url))?.headers ?? apiHeaders;
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (isDocsPath(request.url)) {
      void reply.headers(docsHeaders);
    } else {
      void reply.headers(headersFor(request.url));
      if (!reply.hasHeader('cache-control')) {
        // Responses carry tokens and keys: no shared or browser cache may keep them.
        void reply.header('cache-control', 'no-store');
      }
    }
    void reply.header('x-request-id', request.id);
    done(null, payload);
  });
  const origins = parseCorsOrigins(config.CORS_ORIGINS);
  if (origins.length > 0) {
    await fastify.register(fastifyCors, corsOptions(origins));
  }
}

/** The per-address request limit (a no-op hook is not even registered when limits are off). */
export function registerRateLimit(app: NestFastifyApplication): void {
  const limiter = app.get(RequestRateLimiter);
  if (limiter.enabled) {
    app.getHttpAdapter().getInstance().addHook('onRequest', (request, reply) => limiter.check(request, reply));
  }
}
