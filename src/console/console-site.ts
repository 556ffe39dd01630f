import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { AppConfig } from '../config/app-config';
import { consoleSettings } from './console-csp';

/**
 * Where `npm run build:console` writes the page: `console/dist` (the same path from src/ under Jest
 * and from dist/ when built). Not under dist/: the server build (scripts/build-server.js) empties dist/, and the CLI runs it on
 * its own when the sources changed.
 */
export const CONSOLE_DIST = join(__dirname, '..', '..', 'console', 'dist');

/** The console's pages, written by hand in the URL space; `/v1` does not cover them (docs/api.md, Requests and responses). */
const V1_CONSOLE = /^\/v1\/(console|account)(\/|\?|$)/;

/**
 * Serves the operator console (`/console`) and the players' account page (`/account`), one
 * Vite-built app, as static files. It holds no privilege: the page calls the public API with its
 * console session (src/console-sessions/), or on /account with the player's club token. Its CSP is set with the other security headers (http-security.ts).
 */
@Injectable()
export class ConsoleSite implements OnModuleInit {
  private readonly logger = new Logger('Console');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const built = existsSync(join(CONSOLE_DIST, 'index.html'));
    if (!built) {
      this.logger.warn(`The console is not built (${CONSOLE_DIST}); run npm run build. /console answers 503 until then.`);
    }
    const settings = JSON.stringify(consoleSettings(this.config));

    fastify.addHook('onRequest', (request, _reply, done) => {
      done(V1_CONSOLE.test(request.originalUrl) ? ApiError.notFound(msg('http.noEndpoint', { method: request.method, path: request.originalUrl.split('?')[0] })) : undefined);
    });
    // Not awaited: awaiting would load the plugin queue now, before Nest installs its error handler,
    // and errors of onRequest hooks would then leave in Fastify's own shape instead of the envelope.
    if (built) {
      void fastify.register(fastifyStatic, {
        root: CONSOLE_DIST,
        prefix: '/console/',
        index: false,
        // One route per built file (found at start): any other path under /console is a plain 404.
        wildcard: false,
        cacheControl: false,
        // Hashed bundles never change; everything else is checked on each load.
        setHeaders: (reply, path) => {
          void reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }
    const page = (reply: FastifyReply): FastifyReply => {
      if (!built) {
        throw ApiError.unavailable('console.notBuilt');
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    };
    fastify.get('/console', (_request, reply) => page(reply));
    fastify.get('/console/', (_request, reply) => page(reply));
    fastify.get('/account', (_request, reply) => page(reply));
    fastify.get('/console/config.json', (_request, reply) => reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(settings));
  }
}
