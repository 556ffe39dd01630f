import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestParams } from './request-params';

/**
 * The request's merged parameters (path < query < body), validated against the DTO type of the
 * parameter by the global ValidationPipe.
 */
export const Input = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  requestParams(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** The client address as Fastify resolved it (honours TRUST_PROXY). */
export const ClientIp = createParamDecorator((_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<FastifyRequest>().ip);
