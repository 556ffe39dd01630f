import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { CLUB_TOKEN_PATTERN } from '../common/identifiers';
import { hashSecret, newClubToken } from '../common/secrets';
import { AppConfig } from '../config/app-config';
import { ClubAccount } from './club-account.entity';
import type { ClubSession } from './club-session';
import { ClubToken } from './club-token.entity';

export interface IssuedToken {
  usertoken: string;
  expiresAt: Date;
}

/** Tokens past expiry by this long are deleted when the account gets a new one. */
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

@Injectable()
export class ClubTokensService {
  constructor(
    @InjectRepository(ClubToken) private readonly tokens: Repository<ClubToken>,
    private readonly config: AppConfig,
  ) {}

  /** Issues a token inside the caller's transaction and makes it the account's only valid one. */
  async issue(manager: EntityManager, accountId: number): Promise<IssuedToken> {
    const usertoken = newClubToken();
    const issuedAt = new Date();
    const expiresAt = new Date(issuedAt.getTime() + this.config.CLUB_TOKEN_TTL_SECONDS * 1000);
    const inserted = await manager.insert(ClubToken, { accountId, tokenHash: hashSecret(usertoken), issuedAt, expiresAt, loggedOutAt: null });
    const tokenId = inserted.identifiers[0]?.id as number;
    await manager.update(ClubAccount, { id: accountId }, { currentTokenId: tokenId });
    await manager.delete(ClubToken, { accountId, expiresAt: LessThan(new Date(issuedAt.getTime() - KEEP_EXPIRED_MS)) });
    return { usertoken, expiresAt };
  }

  /** The session behind a token, or 401 saying whether it was missing, invalid, logged out, superseded or expired. */
  async authenticate(usertoken: string | undefined): Promise<ClubSession> {
    if (!usertoken) {
      throw ApiError.unauthorized('A user token is required (usertoken parameter or Authorization: Bearer).');
    }
    if (!CLUB_TOKEN_PATTERN.test(usertoken)) {
      throw ApiError.unauthorized('The user token is invalid.');
    }
    const token = await this.tokens
      .createQueryBuilder('token')
      .innerJoinAndSelect('token.account', 'account')
      .innerJoinAndSelect('account.player', 'player')
      .where('token.token_hash = :hash', { hash: hashSecret(usertoken) })
      .getOne();
    const account = token?.account;
    const player = account?.player;
    if (!token || !account || !player) {
      throw ApiError.unauthorized('The user token is invalid.');
    }
    if (token.loggedOutAt) {
      throw ApiError.unauthorized('The user token was logged out; sign in again.');
    }
    if (account.currentTokenId !== token.id) {
      throw ApiError.unauthorized('The user token was superseded by a newer token for this account; use the newest one.');
    }
    if (token.expiresAt.getTime() <= Date.now()) {
      throw ApiError.unauthorized('The user token has expired; sign in again.');
    }
    return {
      accountId: account.id,
      tokenId: token.id,
      playerUuid: player.uuid,
      mcid: player.mcid,
      chatid: player.chatid,
      permission: player.permission,
      nickname: account.nickname,
      clubgroup: account.clubgroup,
      createdAt: account.createdAt,
    };
  }

  async logout(session: ClubSession): Promise<void> {
    await this.tokens.update({ id: session.tokenId }, { loggedOutAt: new Date() });
  }
}
