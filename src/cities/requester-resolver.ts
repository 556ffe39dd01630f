import { Injectable } from '@nestjs/common';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { ClubTokensService } from '../club/club-tokens.service';
import { ApiError } from '../common/errors/api-error';
import { CLUB_TOKEN_PATTERN, USER_KEY_PATTERN } from '../common/identifiers';
import type { Transaction } from '../database/transaction';
import { PendingUserKey, UserKeysService } from '../user-keys/user-keys.service';
import type { Actor } from './city-audit.service';
import type { RequestCredentials } from './city-credentials';

/** Who files a Create City request, and the operator behind `force` when there is one. */
export interface Requester {
  playerUuid: string;
  actor: Actor;
  /** A user key is single-use: read now, spent with the request it files (see `spendKey`). */
  userKey?: PendingUserKey;
  /** `apikey:<name>` of the operator key that forces the create; absent without `force`. */
  forcedBy?: Actor;
}

/**
 * Tells the credentials of Create City apart. `usertoken` is a user key (10 letters, from the game
 * server) or a club token (32 alphanumerics, from the club site); `force` needs an operator API
 * key. The user token is checked first, so a caller without one hears 401 whatever `force` says.
 */
@Injectable()
export class RequesterResolver {
  constructor(
    private readonly userKeys: UserKeysService,
    private readonly clubTokens: ClubTokensService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async resolve(credentials: RequestCredentials, force: boolean): Promise<Requester> {
    const requester = await this.player(credentials.usertoken);
    return force ? { ...requester, forcedBy: await this.operator(credentials.apikey) } : requester;
  }

  /**
   * Spends the user key the request came with, in the transaction that files the request: a
   * request refused before that point leaves the key unspent. A club token is not spent.
   */
  async spendKey(tx: Transaction, requester: Requester): Promise<void> {
    if (requester.userKey) {
      await this.userKeys.spend(tx, requester.userKey);
    }
  }

  private async player(usertoken: string | undefined): Promise<Requester> {
    if (!usertoken) {
      throw ApiError.unauthorized('cities.create.userKeyRequired');
    }
    if (USER_KEY_PATTERN.test(usertoken)) {
      const userKey = await this.userKeys.peek(usertoken);
      return { playerUuid: userKey.playerUuid, actor: `player:${userKey.playerUuid}`, userKey };
    }
    if (CLUB_TOKEN_PATTERN.test(usertoken)) {
      const session = await this.clubTokens.authenticate(usertoken);
      return { playerUuid: session.playerUuid, actor: `club:${session.playerUuid}` };
    }
    throw ApiError.unauthorized('cities.create.badToken');
  }

  /** None or an unknown key → 401, a key without the operator scope → 403. */
  private async operator(apikey: string | undefined): Promise<Actor> {
    if (!apikey) {
      throw ApiError.unauthorized('cities.create.forceNeedsKey');
    }
    const principal = await this.apiKeys.authenticate(apikey);
    if (!principal) {
      throw ApiError.unauthorized('auth.apiKeyUnknown');
    }
    if (!principal.scopes.includes('operator')) {
      throw ApiError.forbidden('cities.create.forceScope');
    }
    return `apikey:${principal.name}`;
  }
}
