import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { databaseErrorKind } from '../../database/database-errors';
import { BuildInfo } from '../build-info';
import { RouteTable } from '../http/route-table';
import { Telemetry } from '../telemetry/telemetry';
import { ApiError } from './api-error';
import { answerStyleOf } from '../http/answer-style';
import { inAnswerStyle, toErrorResponse } from './error-response';
import { msg } from './messages';

/** The single exception filter: every error leaves in the error envelope. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(
    private readonly build: BuildInfo,
    private readonly routes: RouteTable,
    private readonly telemetry: Telemetry,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.answer(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  /** Sends the error envelope for `exception`; also used by the reads answered before Nest's router (cached-reads.ts). */
  answer(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const databaseError = databaseErrorKind(exception);
    if (databaseError) {
      this.telemetry.databaseError(databaseError);
    }
    sendError(this.translateUnmatched(exception, request), request, reply, this.build.version, this.logger);
  }

  /** Nest reports an unmatched route as NotFoundException; a known path with another method is a 405. */
  private translateUnmatched(exception: unknown, request: FastifyRequest): unknown {
    if (!(exception instanceof NotFoundException) || exception instanceof ApiError || request.routeOptions?.url) {
      return exception;
    }
    const allowed = this.routes.allowedMethods(request.url);
    if (allowed.length > 0) {
      return new ApiError(405, 'method_not_allowed', msg('http.methodNotAllowed', { method: request.method, allow: allowed }), undefined, {
        Allow: allowed.join(', '),
      });
    }
    return ApiError.notFound(msg('http.noEndpoint', { method: request.method, path: request.url.split('?')[0] }));
  }
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, version: string, logger: Pick<Logger, 'error'>): void {
  const response = inAnswerStyle(toErrorResponse(error, version), answerStyleOf(request));
  if (response.isServerFault) {
    logger.error({ msg: 'request failed', err: error, reqId: request.id });
  }
  if (reply.sent) {
    return;
  }
  void reply.status(response.status).headers(response.headers).send(response.body);
}
