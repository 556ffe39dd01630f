import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ApiScope } from '../api-keys/api-key.entity';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import type { ClubSession } from '../club/club-session';

export type AuthRequirement = { kind: 'club' } | { kind: 'apikey'; scope: ApiScope | readonly ApiScope[] } | { kind: 'operator-or-admin' };

export type Caller = { kind: 'club'; session: ClubSession } | { kind: 'apikey'; key: ApiKeyPrincipal };

export const AUTH_REQUIREMENT = 'auth:requirement';
export const CALLER = Symbol('caller');

export type RequestWithCaller = FastifyRequest & { [CALLER]?: Caller };

const errorResponses = [
  ApiResponse({ status: 401, description: 'Credential missing, unknown, expired, superseded or logged out.' }),
  ApiResponse({ status: 403, description: 'Credential valid but without the needed scope or group.' }),
];

/** The route needs a valid club user token (`usertoken` parameter or `Authorization: Bearer`). */
export const ClubAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, { kind: 'club' } satisfies AuthRequirement), ApiBearerAuth('usertoken'), ...errorResponses);

/** The route needs an API key with the scope, or with one of the scopes (`apikey` parameter or `X-API-Key`). */
export const ApiKeyAuth = (scope: ApiScope | readonly ApiScope[]): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, { kind: 'apikey', scope } satisfies AuthRequirement), ApiSecurity('apikey'), ...errorResponses);

/** The route needs an operator API key or the user token of a club admin. */
export const OperatorAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTH_REQUIREMENT, { kind: 'operator-or-admin' } satisfies AuthRequirement),
    ApiSecurity('apikey'),
    ApiBearerAuth('usertoken'),
    ...errorResponses,
  );

/** The authenticated caller, set by AuthGuard. */
export const AuthCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller | undefined => {
  return context.switchToHttp().getRequest<RequestWithCaller>()[CALLER];
});

/** The club session of a route guarded by ClubAuth. */
export const Session = createParamDecorator((_data: unknown, context: ExecutionContext): ClubSession => {
  const caller = context.switchToHttp().getRequest<RequestWithCaller>()[CALLER];
  if (caller?.kind !== 'club') {
    throw new Error('Session used on a route without ClubAuth');
  }
  return caller.session;
});
