import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { apiKeyOf, userTokenOf } from '../auth/credentials';

/** The credentials a route reads itself because no single guard fits it (Create City: user key or club token, apikey with force). */
export interface RequestCredentials {
  usertoken?: string;
  apikey?: string;
}

export const Credentials = createParamDecorator((_data: unknown, context: ExecutionContext): RequestCredentials => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return { usertoken: userTokenOf(request), apikey: apiKeyOf(request) };
});
