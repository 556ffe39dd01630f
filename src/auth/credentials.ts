import type { FastifyRequest } from 'fastify';
import { requestParams } from '../common/http/request-params';

function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The club user token: `Authorization: Bearer …` or the `usertoken` parameter. */
export function userTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string' && /^Bearer\s+/i.test(header)) {
    return stringParam(header.replace(/^Bearer\s+/i, '').trim());
  }
  return stringParam(requestParams(request).usertoken);
}

/** The API key: `X-API-Key` or the `apikey` parameter. */
export function apiKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') {
    return stringParam(header.trim());
  }
  return stringParam(requestParams(request).apikey);
}
