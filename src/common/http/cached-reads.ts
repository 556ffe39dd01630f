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

/**
 * Installs the cached reads on their routes as Nest registers them. A request is answered here
 * only when validation and the handler succeed; anything else (invalid input, a 404, a database
 * error, another method) continues to Nest, which answers it, errors included, as before.
 * Returns a check for after `app.init()` that every read found its route.
 */
export function registerCachedReads(fastify: FastifyInstance, pipe: PipeTransform, reads: readonly CachedRead[]): () => void {
  const byUrl = new Map(reads.map((read) => [read.url, read]));
  const attached = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    const read = route.method === 'GET' ? byUrl.get(route.url) : undefined;
    if (!read) {
      return;
    }
    // Route-level hooks run after the instance's own onRequest hooks (CORS, query check, rate limit).
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...(own as onRequestHookHandler[]), answerFrom(read, pipe)];
    attached.add(read.url);
  });
  return () => {
    const missing = reads.filter((read) => !attached.has(read.url)).map((read) => read.url);
    if (missing.length > 0) {
      throw new Error(`Cached reads without a route: ${missing.join(', ')}`);
    }
  };
}

function answerFrom(read: CachedRead, pipe: PipeTransform): onRequestHookHandler {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    // A HEAD request (Fastify's route for it shares these hooks) goes to Nest.
    if (request.method !== 'GET') {
      done();
      return;
    }
    answer(read, pipe, request).then(
      (body) => void reply.send(body),
      // Nest answers it again, with its own error body and status.
      () => done(),
    );
  };
}

async function answer(read: CachedRead, pipe: PipeTransform, request: FastifyRequest): Promise<object> {
  // The same merged parameters and validation as the handler's @Input() (a GET has no body).
  const input: unknown = await pipe.transform(requestParams(request), { type: 'custom', metatype: read.input, data: undefined });
  return read.handle(input);
}
