import { randomUUID } from 'node:crypto';
import type { Type } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { AUTH_REQUIREMENT } from './auth/auth.decorators';
import { BanlistController } from './banlist-sync/banlist.controller';
import { BanlistUserDto } from './banlist-sync/dto/banlist.dto';
import { CitiesController } from './cities/cities.controller';
import { FindCityByPathDto } from './cities/dto/city.dto';
import { BuildInfo } from './common/build-info';
import { assertSingleValued, registerBodyParsers } from './common/http/body-parsers';
import { CachedRead, registerCachedReads } from './common/http/cached-reads';
import { registerEnvelope } from './common/http/envelope.hook';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './common/http/json-depth';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { ApiError } from './common/errors/api-error';
import { msg } from './common/errors/messages';
import { RouteTable } from './common/http/route-table';
import { serializeError } from './common/logging/error-serializer';
import { lazyChildLoggerFactory } from './common/logging/lazy-request-logger';
import { PinoNestLogger } from './common/logging/pino-nest-logger';
import { REDACTED_PATHS, redactUrl } from './common/logging/redact';
import { finishDocument } from './common/openapi/openapi-document';
import { Telemetry } from './common/telemetry/telemetry';
import { createValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app-config';
import { fastifyTrustProxy } from './config/trust-proxy';
import { captchaProviderFor, consoleCsp, isConsolePath } from './console/console-csp';
import { isEvidencePath, PUBLIC_EVIDENCE_HEADERS } from './evidence/evidence-path';
import { isMapPath, PUBLIC_MAP_HEADERS } from './maps/map-file';
import { MetricsService } from './metrics/metrics.service';
import { EVIDENCE_BODY_LIMIT, EVIDENCE_UPLOAD_URL, registerImageBodyParser } from './moderation/image-body';
import { REPEATABLE_RECORDS_QUERY, RECORDS_LIST_URL } from './moderation/records-query';
import { PathHeaders, registerHttpHygiene, registerRateLimit } from './security/http-security';
import { transportErrorHandlers } from './security/transport-errors';
import { FindUserDto } from './users/dto/user-lookup.dto';
import { UsersController } from './users/users.controller';

const SMALL_BODY_LIMIT = 64 * 1024;
const LARGE_BODY_LIMIT = 1024 * 1024;

/** The body limit of a route (docs/api.md, Requests and responses): the one exception is the evidence upload. */
function bodyLimitOf(url: string): number {
  if (url === EVIDENCE_UPLOAD_URL) {
    return EVIDENCE_BODY_LIMIT;
  }
  // The game server's and the chat bot's batches (up to 1000 records) get the large limit.
  return url.startsWith('/game-server') || url.startsWith('/chat-bot') ? LARGE_BODY_LIMIT : SMALL_BODY_LIMIT;
}

/** Query parameters a route takes more than once (a list); every other one given twice is a 400. */
const REPEATABLE_QUERY: ReadonlyMap<string, ReadonlySet<string>> = new Map([[RECORDS_LIST_URL, REPEATABLE_RECORDS_QUERY]]);

export interface CreateAppOptions {
  /** Where log lines go (tests capture them); stdout when absent. */
  logStream?: DestinationStream;
  /** false: the cached reads go through Nest's router like every route (tests compare the two ways). */
  cachedReads?: boolean;
}

/** Paths that are not API routes and so have no `/v1` alias (docs/api.md, Requests and responses). */
const UNVERSIONED_PATHS = ['/metrics'];

/** `/v1/<path>` is the same route as `/<path>` (older clients call both). */
function stripVersionPrefix(url: string): string {
  if (url === '/v1' || url.startsWith('/v1?')) {
    return `/${url.slice(3)}`;
  }
  if (!url.startsWith('/v1/')) {
    return url;
  }
  const path = url.slice(3);
  // `/v1/metrics` stays as it is and so matches no route (404).
  return UNVERSIONED_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}?`) || path.startsWith(`${prefix}/`)) ? url : path;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

function acceptedRequestId(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : undefined;
}

/**
 * The one onResponse hook: request metrics (route template, method, status, duration) and,
 * at info level, one log line per request with secrets redacted.
 */
function registerResponseHook(fastify: FastifyInstance, telemetry: Telemetry, logRequests: boolean): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const elapsed = reply.elapsedTime;
    telemetry.observeRequest(request.routeOptions.url, request.method, reply.statusCode, elapsed);
    if (logRequests) {
      request.log.info({ method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms: Math.round(elapsed) }, 'request');
    }
    done();
  });
}

/** The headers the console's and the maps' paths lay over the API's (docs/console-and-maps.md). */
function featureHeaders(config: AppConfig): PathHeaders[] {
  return [
    // The console page: its own scripts and styles, and the CAPTCHA provider's only when a site key is set (docs/console-and-maps.md, What the console does).
    { matches: isConsolePath, headers: { 'content-security-policy': consoleCsp(config.RECAPTCHA_SITE_KEY ? captchaProviderFor(config.RECAPTCHA_VERIFY_URL) : undefined) } },
    // Maps are public files (docs/console-and-maps.md, Maps): any site may load them, errors included.
    { matches: isMapPath, headers: PUBLIC_MAP_HEADERS },
    // Evidence pictures are public files the bans site shows from its own origin (docs/bans-site.md).
    { matches: isEvidencePath, headers: PUBLIC_EVIDENCE_HEADERS },
  ];
}

/**
 * A public read answered before Nest's router: the controller's own handler with its own DTO. A
 * handler that needs a credential cannot be one (its guard would be skipped): the start fails.
 */
function publicRead<C extends object, Input>(app: NestFastifyApplication, controller: Type<C>, handler: (this: C, input: Input) => Promise<object>, url: string, input: Type<Input>): CachedRead {
  if (app.get(Reflector).getAllAndOverride(AUTH_REQUIREMENT, [handler, controller]) !== undefined) {
    throw new Error(`${controller.name}.${handler.name} needs a credential: it cannot be a cached read`);
  }
  const instance = app.get(controller);
  return { url, input, handle: (validated) => handler.call(instance, validated as Input) };
}

/**
 * The hot public reads, served from the read caches through their controllers' handlers without
 * Nest's per-request pipeline (docs/design-and-performance.md, Performance).
 */
function cachedReads(app: NestFastifyApplication): CachedRead[] {
  return [
    publicRead(app, CitiesController, CitiesController.prototype.findByPath, '/cities/:id', FindCityByPathDto),
    publicRead(app, UsersController, UsersController.prototype.findByPath, '/users/:identifier', FindUserDto),
    publicRead(app, BanlistController, BanlistController.prototype.byPath, '/users/banlist/:uuid', BanlistUserDto),
  ];
}

/** Builds the whole HTTP application (not yet listening); used by main.ts, the benchmark and the e2e tests. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: {
      level: config.LOG_LEVEL,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        err: serializeError,
        // Never the headers (credentials, cookies, CAPTCHA tokens); a `req` that is not a request (a plain object) logs no URL rather than throwing.
        req: (request: Pick<FastifyRequest, 'method' | 'url' | 'ip'>) => ({ method: request.method, url: typeof request.url === 'string' ? redactUrl(request.url) : undefined, remoteAddress: request.ip }),
      },
    },
    // One line per request is written by the onResponse hook below, with secrets redacted.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    // A caller's x-request-id is kept only when it is a short safe token; else a new one.
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => acceptedRequestId(request.headers['x-request-id']) ?? randomUUID(),
    requestIdHeader: false,
    bodyLimit: SMALL_BODY_LIMIT,
    // A client must send its whole request within HTTP_REQUEST_TIMEOUT_MS (408 after), and a
    // connection on which nothing moves for HTTP_IDLE_TIMEOUT_MS is closed; a long-poll answers
    // before that (docs/reliability.md). Without them a trickling or silent client holds a socket for ever.
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    // Node looks for late requests every 30 s by default: a 5 s limit would act at 30 s.
    http: { connectionsCheckingInterval: Math.min(1000, config.HTTP_REQUEST_TIMEOUT_MS), headersTimeout: Math.min(60_000, config.HTTP_REQUEST_TIMEOUT_MS) },
    // While draining (SIGTERM), a request that still arrives on an open keep-alive connection
    // (a load balancer's pooled connection) is served, with `Connection: close`, instead of
    // Fastify's default bare 503: a balancer does not retry a 503 for a POST, so the client
    // would see an error although another replica (or this one) could have answered it.
    return503OnClosing: false,
    rewriteUrl: (request: { url?: string }) => stripVersionPrefix(request.url ?? '/'),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Bad URLs, over-long path parameters and oversized headers also answer in the envelope.
    ...transportErrorHandlers(config),
  });
  const fastify = adapter.getInstance();
  const routes = new RouteTable(fastify);

  fastify.addHook('onRoute', (route) => {
    // The CORS plugin's catch-all preflight route must not make every path a "known path" (405 instead of 404).
    if (route.url !== '*') {
      routes.add(route.method, route.url);
    }
    route.bodyLimit = bodyLimitOf(route.url);
  });
  await registerHttpHygiene(fastify, config, featureHeaders(config));
  registerBodyParsers(fastify);
  registerImageBodyParser(fastify);
  fastify.addHook('onRequest', (request, _reply, done) => {
    try {
      const repeatable = REPEATABLE_QUERY.get(request.routeOptions.url ?? '');
      for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
        if (repeatable?.has(name) && Array.isArray(value)) {
          continue;
        }
        assertSingleValued(name, value, 'query');
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    // Deeper than 32 levels is a 400 before any validation recursion can overflow.
    done(exceedsJsonDepth(request.body) ? ApiError.badRequest(msg('http.tooDeep', { max: MAX_JSON_DEPTH })) : undefined);
  });
  // x-request-id is set with the other fixed headers by the onSend hook of registerHttpHygiene.

  // Nest logs through pino from the first line (a start failure is JSON too, not coloured text),
  // and a failing provider rejects here instead of ending the process: main.ts reports it.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, routes), adapter, {
    logger: new PinoNestLogger(fastify.log),
    abortOnError: false,
    bodyParser: false,
  });
  app.get(MetricsService).collectProcessMetrics();
  registerResponseHook(fastify, app.get(Telemetry), ['info', 'debug', 'trace'].includes(config.LOG_LEVEL));
  registerRateLimit(app);
  // After the rate limit's hook, so that it counts these requests too; Nest adds its routes in init().
  const errors = app.get(AllExceptionsFilter);
  const assertCachedReadsAttached = registerCachedReads(
    fastify,
    { pipe: createValidationPipe(), answerError: (error, request, reply) => errors.answer(error, request, reply) },
    options.cachedReads === false ? [] : cachedReads(app),
  );

  const version = app.get(BuildInfo).version;
  registerEnvelope(fastify, version);

  const document = finishDocument(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Community service')
        .setDescription(
          'Cities, players, ban-list mirror and club accounts of the game-server community. Every route is also served under /v1. ' +
            'GET and DELETE read the query string; POST and PATCH read the body and the query string (the body wins).',
        )
        .setVersion(version)
        .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Operator or game-server API key (also accepted as the apikey parameter).' }, 'apikey')
        .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Club user token (also accepted as the usertoken parameter).' }, 'usertoken')
        .addCookieAuth(
          'console_session',
          {
            type: 'apiKey',
            in: 'cookie',
            name: 'console_session',
            description:
              'Console session (POST /console-session), HttpOnly and SameSite=Strict; __Host-console_session over HTTPS. Calls that change anything also need its X-CSRF-Token header.',
          },
          'console_session',
        )
        .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics when it is set.' }, 'metrics-token')
        .build(),
    ),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json', yamlDocumentUrl: 'docs/openapi.yaml' });

  await app.init();
  assertCachedReadsAttached();
  return app;
}
