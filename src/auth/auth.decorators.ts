import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ApiScope } from '../api-keys/api-key.entity';
import type { ResolvedSession } from '../console-sessions/console-sessions.service';
import type { ClubSession } from '../club/club-session';
import type { Caller } from './caller';

/**
 * `consoleSession`: a console session's cookie is also accepted (docs/console-and-maps.md, Signing
 * in to the console), for the routes the console calls; every other caller sends its key or token.
 */
export type AuthRequirement =
  | { kind: 'club' }
  | { kind: 'apikey'; scope: ApiScope | readonly ApiScope[]; consoleSession?: boolean }
  | { kind: 'operator-or-admin'; consoleSession: boolean }
  | { kind: 'console-session' };

export const AUTH_REQUIREMENT = 'auth:requirement';
export const CALLER = Symbol('caller');
/** The console session a request was authenticated with, when it was. */
export const CONSOLE_SESSION = Symbol('console-session');

export type RequestWithCaller = FastifyRequest & { [CALLER]?: Caller; [CONSOLE_SESSION]?: CookieSession };

/** A console session found from its cookie: the cookie's value (to derive the CSRF token) and the session. */
export interface CookieSession {
  secret: string;
  resolved: ResolvedSession;
}

const errorResponses = [
  ApiResponse({ status: 401, description: 'Credential missing, unknown, expired, superseded or logged out.' }),
  ApiResponse({ status: 403, description: 'Credential valid but without the needed scope or group.' }),
];

/** The route needs a valid club user token (`usertoken` parameter or `Authorization: Bearer`). */
export const ClubAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, { kind: 'club' } satisfies AuthRequirement), ApiBearerAuth('usertoken'), ...errorResponses);

/**
 * The route needs an API key with the scope, or with one of the scopes (`apikey` parameter or
 * `X-API-Key`); with `consoleSession`, an operator's console session too.
 */
export const ApiKeyAuth = (scope: ApiScope | readonly ApiScope[], options: { consoleSession?: boolean } = {}): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTH_REQUIREMENT, { kind: 'apikey', scope, consoleSession: options.consoleSession } satisfies AuthRequirement),
    ApiSecurity('apikey'),
    ...(options.consoleSession ? [ApiCookieAuth('console_session')] : []),
    ...errorResponses,
  );

/** The route needs an operator API key or the user token of a club admin, or a console session of either. */
export const OperatorAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTH_REQUIREMENT, { kind: 'operator-or-admin', consoleSession: true } satisfies AuthRequirement),
    ApiSecurity('apikey'),
    ApiBearerAuth('usertoken'),
    ApiCookieAuth('console_session'),
    ...errorResponses,
  );

/** Console sign-in: an operator API key or a club admin's user token itself (a cookie cannot start another session). */
export const OperatorCredentialAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTH_REQUIREMENT, { kind: 'operator-or-admin', consoleSession: false } satisfies AuthRequirement),
    ApiSecurity('apikey'),
    ApiBearerAuth('usertoken'),
    ...errorResponses,
  );

/** The route needs a console session's cookie (and, to change anything, its CSRF token). */
export const ConsoleSessionAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, { kind: 'console-session' } satisfies AuthRequirement), ApiCookieAuth('console_session'), ...errorResponses);

/** The authenticated caller, set by AuthGuard. */
export const AuthCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller | undefined => {
  return context.switchToHttp().getRequest<RequestWithCaller>()[CALLER];
});

/** The console session of a route guarded by ConsoleSessionAuth. */
export const CurrentConsoleSession = createParamDecorator((_data: unknown, context: ExecutionContext): CookieSession => {
  const found = context.switchToHttp().getRequest<RequestWithCaller>()[CONSOLE_SESSION];
  if (!found) {
    throw new Error('CurrentConsoleSession used on a route without ConsoleSessionAuth');
  }
  return found;
});

/** Whether the request came over HTTPS (directly, or through a trusted proxy: TRUST_PROXY). */
export const OverHttps = createParamDecorator((_data: unknown, context: ExecutionContext): boolean => context.switchToHttp().getRequest<FastifyRequest>().protocol === 'https');

/** The club session of a route guarded by ClubAuth. */
export const Session = createParamDecorator((_data: unknown, context: ExecutionContext): ClubSession => {
  const caller = context.switchToHttp().getRequest<RequestWithCaller>()[CALLER];
  if (caller?.kind !== 'club') {
    throw new Error('Session used on a route without ClubAuth');
  }
  return caller.session;
});
