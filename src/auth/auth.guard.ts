import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { ApiScope } from '../api-keys/api-key.entity';
import { ClubTokensService } from '../club/club-tokens.service';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { AUTH_REQUIREMENT, AuthRequirement, CALLER, Caller, RequestWithCaller } from './auth.decorators';
import { apiKeyOf, userTokenOf } from './credentials';

/** Enforces the credential a route declares with ClubAuth, ApiKeyAuth or OperatorAuth. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly clubTokens: ClubTokensService,
  ) {}

  /** Route metadata never changes, so it is read once per handler instead of once per request. */
  private readonly requirements = new WeakMap<object, AuthRequirement | null>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const handler = context.getHandler();
    let requirement = this.requirements.get(handler);
    if (requirement === undefined) {
      requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [handler, context.getClass()]) ?? null;
      this.requirements.set(handler, requirement);
    }
    if (!requirement) {
      return true;
    }
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    request[CALLER] = await this.authenticate(requirement, request);
    return true;
  }

  private async authenticate(requirement: AuthRequirement, request: RequestWithCaller): Promise<Caller> {
    switch (requirement.kind) {
      case 'club':
        return { kind: 'club', session: await this.clubTokens.authenticate(userTokenOf(request)) };
      case 'apikey':
        return this.apiKey(apiKeyOf(request), requirement.scope);
      case 'operator-or-admin':
        return this.operatorOrAdmin(request);
    }
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
