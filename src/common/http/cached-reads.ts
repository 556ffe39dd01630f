import type { PipeTransform, Type } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { requestParams } from './request-params';

/**
 * A public GET route answered from Fastify's onRequest stage instead of through Nest's router
 * (docs/design-and-performance.md, Performance): its input goes through the application's own
 * validation pipe and its body comes from the controller's own handler, so only Nest's per-request
 * machinery is skipped; Fastify's hooks (rate limit, CORS, security headers, request id,
 * envelope, metrics, log line) run as for any route.
 */
export interface CachedRead<Input = unknown> {
  /** The route exactly as Nest registers it with Fastify, e.g. `/cities/:id`. */
  url: string;
  /** The DTO class of the handler's `@Input()` parameter. */
  input: Type<Input>;
  /** The controller's handler, called with the validated input. */
  handle(input: Input): Promise<object>;
}

/** How the application validates input and answers an error (its validation pipe and its one exception filter). */
export interface CachedReadsPipeline {
  pipe: PipeTransform;
  answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Installs the cached reads on their routes as Nest registers them. A GET is answered here,
 * failures included: invalid input, a 404 or a database error leave through the same exception
 * filter as through Nest, so a read is never run twice (a stalled database would otherwise cost
 * a failing read two statement deadlines). HEAD requests continue to Nest.
 * Returns a check for after `app.init()` that every read found its route.
 */
export function registerCachedReads(fastify: FastifyInstance, pipeline: CachedReadsPipeline, reads: readonly CachedRead[]): () => void {
  const byUrl = new Map(reads.map((read) => [read.url, read]));
  const attached = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    const read = route.method === 'GET' ? byUrl.get(route.url) : undefined;
    if (!read) {
      return;
    }
    // Route-level hooks run after the instance's own onRequest hooks (CORS, query check, rate limit).
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...(own as onRequestHookHandler[]), answerFrom(read, pipeline)];
    attached.add(read.url);
  });
  return () => {
    const missing = reads.filter((read) => !attached.has(read.url)).map((read) => read.url);
    if (missing.length > 0) {
      throw new Error(`Cached reads without a route: ${missing.join(', ')}`);
    }
  };
}

function answerFrom(read: CachedRead, pipeline: CachedReadsPipeline): onRequestHookHandler {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    // A HEAD request (Fastify's route for it shares these hooks) goes to Nest.
    if (request.method !== 'GET') {
      done();
      return;
    }
    answer(read, pipeline.pipe, request).then(
      (body) => void reply.send(body),
      (error: unknown) => pipeline.answerError(error, request, reply),
    );
  };
}

async function answer(read: CachedRead, pipe: PipeTransform, request: FastifyRequest): Promise<object> {
  // The same merged parameters and validation as the handler's @Input() (a GET has no body).
  const input: unknown = await pipe.transform(requestParams(request), { type: 'custom', metatype: read.input, data: undefined });
  return read.handle(input);
}
