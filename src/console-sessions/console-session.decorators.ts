import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { sessionCookieOf } from './session-cookie';

/** The console session cookie's value, if the request carries one (checked by the service, not here). */
export const SessionCookie = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined =>
  sessionCookieOf(context.switchToHttp().getRequest<FastifyRequest>().headers.cookie),
);
