import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { CLUB_TOKEN_PATTERN } from '../common/identifiers';
import { hashSecret, newClubToken } from '../common/secrets';
import { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import type { ClubSession } from './club-session';
import { ClubAccountsRepository } from './club-accounts.repository';
import { TokenSession, TokensRepository } from './tokens.repository';

export interface IssuedToken {
  usertoken: string;
  expiresAt: Date;
}

/** Tokens past expiry by this long are deleted when the account gets a new one. */
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

@Injectable()
export class ClubTokensService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly accounts: ClubAccountsRepository,
    private readonly config: AppConfig,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Issues a token inside the caller's transaction and makes it the account's only valid one. */
  async issue(tx: Transaction, accountId: number): Promise<IssuedToken> {
    const usertoken = newClubToken();
    const issuedAt = new Date();
    const expiresAt = new Date(issuedAt.getTime() + this.config.CLUB_TOKEN_TTL_SECONDS * 1000);
    const tokenId = await this.tokens.create(tx, accountId, hashSecret(usertoken), issuedAt, expiresAt);
    await this.accounts.setCurrentToken(tx, accountId, tokenId);
    await this.tokens.deleteTokensExpiredBefore(tx, accountId, new Date(issuedAt.getTime() - KEEP_EXPIRED_MS));
    return { usertoken, expiresAt };
  }

  /** The session behind a token, or 401 saying whether it was missing, invalid, logged out, superseded or expired. */
  async authenticate(usertoken: string | undefined): Promise<ClubSession> {
    if (!usertoken) {
      throw ApiError.unauthorized('auth.tokenRequired');
    }
    if (!CLUB_TOKEN_PATTERN.test(usertoken)) {
      throw ApiError.unauthorized('auth.tokenInvalid');
    }
    return this.validSession(await this.tokens.getSession(hashSecret(usertoken)));
  }

  /** The session of the token with this id while the token itself would still be accepted (a console session checks it on each use). */
  async authenticateTokenId(tokenId: number): Promise<{ session: ClubSession; expiresAt: Date }> {
    const found = await this.tokens.getSessionById(tokenId);
    return { session: this.validSession(found), expiresAt: found?.expiresAt ?? new Date(0) };
  }

  private validSession(session: TokenSession | null): ClubSession {
    if (!session) {
      throw ApiError.unauthorized('auth.tokenInvalid');
    }
    if (session.loggedOut) {
      throw ApiError.unauthorized('auth.tokenLoggedOut');
    }
    if (!session.current) {
      throw ApiError.unauthorized('auth.tokenSuperseded');
    }
    if (session.expiresAt.getTime() <= Date.now()) {
      throw ApiError.unauthorized('auth.tokenExpired');
    }
    return withoutTokenState(session);
  }

  /** Invalidates every token of the account, inside the caller's transaction. */
  async revokeAll(tx: Transaction, accountId: number): Promise<void> {
    await this.accounts.setCurrentToken(tx, accountId, null);
    await this.tokens.deleteAccountTokens(tx, accountId);
  }

  async logout(session: ClubSession): Promise<void> {
    // Through the unit of work: on SQLite a logout beside it could join another request's open
    // transaction and be undone by its rollback, leaving the token valid.
    await this.unitOfWork.transaction((tx) => this.tokens.logOut(tx, session.tokenId, new Date()));
  }
}

function withoutTokenState({ expiresAt: _expiresAt, loggedOut: _loggedOut, current: _current, ...session }: TokenSession): ClubSession {
  return session;
}
