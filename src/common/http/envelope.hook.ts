import type { FastifyInstance } from 'fastify';
import { answerStyleOf } from './answer-style';

/** The base response of a success: the only place that spells it. */
export function successBody(code: number, version: string, fields: object): Record<string, unknown> {
  return { status: true, code, version, ...fields };
}

/** `/docs`, `/docs/openapi.json`, …: Swagger's pages and documents, served as they are. */
export function isDocsPath(url: string | undefined): boolean {
  return url !== undefined && (url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?'));
}

/**
 * Wraps every successful handler result in the base response: `{status: true, code, version,
 * ...fields}`; handlers return only their endpoint fields. `code` is the status actually sent.
 *
 * A Fastify preSerialization hook rather than a Nest interceptor: with any interceptor, Nest
 * runs every request through an RxJS chain and AsyncResource.bind (which calls util.deprecate on
 * Node 20) — about 8% of the CPU of a read in our profiles. Error bodies are built by the
 * exception filter and pass through untouched; pre-encoded bodies (Buffers) never reach here.
 */
export function registerEnvelope(fastify: FastifyInstance, version: string): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    if (reply.statusCode >= 300 || typeof payload !== 'object' || payload === null || Array.isArray(payload) || isDocsPath(request.routeOptions.url) || answerStyleOf(request) === 'bare') {
      done(null, payload);
      return;
    }
    done(null, successBody(reply.statusCode, version, payload));
  });
}
