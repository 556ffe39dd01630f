import type { FastifyRequest } from 'fastify';

const merged = Symbol('mergedParams');

type WithMerged = FastifyRequest & { [merged]?: Record<string, unknown> };

/** A raw body (the evidence upload's picture, a Buffer) holds no parameters. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/**
 * The parameters of a request as docs/api.md (Requests and responses) orders them: path, then the query string
 * (a query value wins over a path variable of the same name), then the body (wins over both).
 * Computed once per request; guards and handlers share it.
 */
export function requestParams(request: FastifyRequest): Record<string, unknown> {
  const cached = (request as WithMerged)[merged];
  if (cached) {
    return cached;
  }
  const params: Record<string, unknown> = {
    ...(isPlainObject(request.params) ? request.params : {}),
    ...(isPlainObject(request.query) ? request.query : {}),
    ...(isPlainObject(request.body) ? request.body : {}),
  };
  (request as WithMerged)[merged] = params;
  return params;
}
