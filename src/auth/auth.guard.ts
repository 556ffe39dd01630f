import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { ApiScope } from '../api-keys/api-key.entity';
import { ClubTokensService } from '../club/club-tokens.service';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { ConsoleSessionsService } from '../console-sessions/console-sessions.service';
import { csrfMatches, CSRF_HEADER, originAllowed, sessionCookieOf } from '../console-sessions/session-cookie';
import { AUTH_REQUIREMENT, AuthRequirement, CALLER, CONSOLE_SESSION, RequestWithCaller } from './auth.decorators';
import type { Caller } from './caller';
import { apiKeyOf, userTokenOf } from './credentials';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function headerOf(request: RequestWithCaller, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Enforces the credential a route declares with ClubAuth, ApiKeyAuth or OperatorAuth. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly clubTokens: ClubTokensService,
    private readonly consoleSessions: ConsoleSessionsService,
  ) {}

  /** Route metadata never changes, so it is read once per handler instead of once per request. */
  private readonly requirements = new WeakMap<object, AuthRequirement | null>();

  /** Synchronous for public routes (most reads): Nest then skips awaiting a promise. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const handler = context.getHandler();
    let requirement = this.requirements.get(handler);
    if (requirement === undefined) {
      requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [handler, context.getClass()]) ?? null;
      this.requirements.set(handler, requirement);
    }
    if (!requirement) {
      return true;
    }
    return this.activate(requirement, context.switchToHttp().getRequest<RequestWithCaller>());
  }

  // Not async functions: a club token (every GET /club/@me) costs one promise, not three (docs/design-and-performance.md, Performance).
  private activate(requirement: AuthRequirement, request: RequestWithCaller): Promise<boolean> {
    return this.authenticate(requirement, request).then((caller) => {
      request[CALLER] = caller;
      return true;
    });
  }

  private authenticate(requirement: AuthRequirement, request: RequestWithCaller): Promise<Caller> {
    switch (requirement.kind) {
      case 'club':
        return this.clubTokens.authenticate(userTokenOf(request)).then((session) => ({ kind: 'club', session }));
      case 'apikey':
        if (requirement.consoleSession && !apiKeyOf(request) && sessionCookieOf(request.headers.cookie) !== undefined) {
          return this.operatorSession(request, requirement.scope);
        }
        return this.apiKey(apiKeyOf(request), requirement.scope);
      case 'operator-or-admin':
        if (requirement.consoleSession && !apiKeyOf(request) && !userTokenOf(request) && sessionCookieOf(request.headers.cookie) !== undefined) {
          return this.consoleSession(request);
        }
        return this.operatorOrAdmin(request);
      case 'console-session':
        return this.consoleSession(request);
    }
  }

  /**
   * A console session's cookie (docs/console-and-maps.md, Console sessions). A call that
   * changes anything must carry the session's CSRF token and, when the browser names its Origin,
   * come from a page on this server's host; checked before the session is looked up, so a forged call
   * does not even keep the session alive.
   */
  private async consoleSession(request: RequestWithCaller): Promise<Caller> {
    const secret = sessionCookieOf(request.headers.cookie);
    if (secret === undefined) {
      throw ApiError.unauthorized('auth.consoleSessionRequired');
    }
    if (!SAFE_METHODS.has(request.method)) {
      if (!originAllowed(headerOf(request, 'origin'), request.host)) {
        throw ApiError.forbidden('auth.consoleOrigin');
      }
      if (!csrfMatches(secret, headerOf(request, CSRF_HEADER))) {
        throw ApiError.forbidden('auth.consoleCsrf');
      }
    }
    const resolved = await this.consoleSessions.resolve(secret);
    request[CONSOLE_SESSION] = { secret, resolved };
    return resolved.caller;
  }

  /** A console session on a route that needs an API key's scope: only an operator's session has one. */
  private async operatorSession(request: RequestWithCaller, scope: ApiScope | readonly ApiScope[]): Promise<Caller> {
    const scopes: readonly ApiScope[] = typeof scope === 'string' ? [scope] : scope;
    const caller = await this.consoleSession(request);
    if (caller.kind !== 'apikey' || !scopes.some((name) => caller.key.scopes.includes(name))) {
      throw ApiError.forbidden(msg('auth.apiKeyScope', { scope: scopes }));
    }
    return caller;
  }

  /** `scope` may list several: any one of them is enough. */
  private async apiKey(key: string | undefined, scope: ApiScope | readonly ApiScope[]): Promise<Caller> {
    const scopes: readonly ApiScope[] = typeof scope === 'string' ? [scope] : scope;
    if (!key) {
      throw ApiError.unauthorized(msg('auth.apiKeyRequired', { scope: scopes }));
    }
    const principal = await this.apiKeys.authenticate(key);
    if (!principal) {
      throw ApiError.unauthorized('auth.apiKeyUnknown');
    }
    if (!scopes.some((name) => principal.scopes.includes(name))) {
      throw ApiError.forbidden(msg('auth.apiKeyScope', { scope: scopes }));
    }
    return { kind: 'apikey', key: principal };
  }

  private async operatorOrAdmin(request: RequestWithCaller): Promise<Caller> {
    const key = apiKeyOf(request);
    if (key) {
      return this.apiKey(key, 'operator');
    }
    const token = userTokenOf(request);
    if (!token) {
      throw ApiError.unauthorized('auth.operatorOrAdminRequired');
    }
    const session = await this.clubTokens.authenticate(token);
    if (session.clubgroup !== 'admin') {
      throw ApiError.forbidden('auth.operatorOrAdminOnly');
    }
    return { kind: 'club', session };
  }
}
