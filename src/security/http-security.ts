import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { isDocsPath } from '../common/http/envelope.hook';
import type { AppConfig } from '../config/app-config';
import { RequestRateLimiter } from './request-rate-limiter';

/**
 * The API answers JSON only: nothing may be loaded, framed or submitted from its responses.
 * The Swagger UI under /docs gets DOCS_CSP instead (its own scripts, inline styles, data: icons).
 */
const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
  },
  referrerPolicy: { policy: 'no-referrer' },
  hsts: { maxAge: 31_536_000, includeSubDomains: true },
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
    allowedHeaders: ['Content-Type', 'Authorization', 'X-API-Key', 'X-Request-Id'],
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
  // Our helmet headers do not depend on the request, so helmet runs once here instead of once
  // per response (@fastify/helmet builds a new middleware per request: ~3% of a read's CPU).
  const apiHeaders = helmetHeaders(HELMET_OPTIONS);
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

/** The headers helmet sets for these options, captured from one dry run of its middleware. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/** The per-address request limit (a no-op hook is not even registered when limits are off). */
export function registerRateLimit(app: NestFastifyApplication): void {
  const limiter = app.get(RequestRateLimiter);
  if (limiter.enabled) {
    app.getHttpAdapter().getInstance().addHook('onRequest', (request, reply) => limiter.check(request, reply));
  }
}
