import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error';
import { toErrorResponse } from '../common/errors/error-response';
import { msg } from '../common/errors/messages';
import { resolveBuildVersion } from '../common/version';
import type { AppConfig } from '../config/app-config';

/**
 * Errors Fastify and Node answer before any route or Nest filter runs: a malformed URL, an
 * over-long path parameter, oversized headers or URL (431), a client timeout. Without these
 * handlers they leave in Fastify's own JSON shape; with them, in the error envelope.
 */
export function transportErrorHandlers(config: Pick<AppConfig, 'APP_VERSION'>): {
  frameworkErrors: (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply) => void;
  clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => void;
} {
  let version: string | undefined;
  const buildVersion = (): string => (version ??= resolveBuildVersion(config.APP_VERSION));

  return {
    frameworkErrors: (error, _request, reply) => {
      const response = toErrorResponse(ApiError.badRequest(error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'http.pathParamTooLong' : 'http.malformedUrl'), buildVersion());
      void reply.status(response.status).send(response.body);
    },
    clientErrorHandler: (error, socket) => {
      // A reset connection has nobody left to answer.
      if (error.code === 'ECONNRESET' || socket.destroyed) {
        return;
      }
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      // 408 and 431 answers use invalid_request, like a 400.
      const text = msg(status === 431 ? 'http.headersTooLarge' : status === 408 ? 'http.timeout' : 'http.invalidHttp');
      const body = JSON.stringify({ status: false, code: status, version: buildVersion(), error: 'invalid_request', message: text.en, message_ja: text.ja });
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
  };
}
