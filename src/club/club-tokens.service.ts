import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { CLUB_TOKEN_PATTERN } from '../common/identifiers';
import { hashSecret, newClubToken } from '../common/secrets';
import { AppConfig } from '../config/app-config';
import { SqlReader } from '../database/sql-reader';
import { dateOf } from '../database/transformers';
import { ClubAccount, ClubGroup } from './club-account.entity';
import type { ClubSession } from './club-session';
import { ClubToken } from './club-token.entity';

export interface IssuedToken {
  usertoken: string;
  expiresAt: Date;
}

/** Tokens past expiry by this long are deleted when the account gets a new one. */
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

interface SessionRow {
  tokenId: number | string;
  expiresAt: Date | string;
  loggedOutAt: Date | string | null;
  accountId: number | string;
  currentTokenId: number | string | null;
  nickname: string | null;
  clubgroup: ClubGroup;
  createdAt: Date | string;
  uuid: string;
  mcid: string | null;
  chatid: string | null;
  permission: string | null;
}

const SESSION_SQL = `
  SELECT t.id AS tokenId, t.expires_at AS expiresAt, t.logged_out_at AS loggedOutAt,
         a.id AS accountId, a.current_token_id AS currentTokenId, a.nickname AS nickname, a.clubgroup AS clubgroup,
         a.created_at AS createdAt, p.uuid AS uuid, p.mcid AS mcid, p.chatid AS chatid, p.permission AS permission
  FROM club_tokens t
  JOIN club_accounts a ON a.id = t.account_id
  JOIN players p ON p.uuid = a.player_uuid
  WHERE t.token_hash = ?`;

@Injectable()
export class ClubTokensService {
  constructor(
    @InjectRepository(ClubToken) private readonly tokens: Repository<ClubToken>,
    private readonly reader: SqlReader,
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
      throw ApiError.unauthorized('auth.tokenRequired');
    }
    if (!CLUB_TOKEN_PATTERN.test(usertoken)) {
      throw ApiError.unauthorized('auth.tokenInvalid');
    }
    // Every authenticated request passes here: one indexed join, no hydration.
    const row = await this.reader.one<SessionRow>(SESSION_SQL, [hashSecret(usertoken)]);
    if (!row) {
      throw ApiError.unauthorized('auth.tokenInvalid');
    }
    if (row.loggedOutAt) {
      throw ApiError.unauthorized('auth.tokenLoggedOut');
    }
    if (row.currentTokenId === null || Number(row.currentTokenId) !== Number(row.tokenId)) {
      throw ApiError.unauthorized('auth.tokenSuperseded');
    }
    if (dateOf(row.expiresAt).getTime() <= Date.now()) {
      throw ApiError.unauthorized('auth.tokenExpired');
    }
    return {
      accountId: Number(row.accountId),
      tokenId: Number(row.tokenId),
      playerUuid: row.uuid,
      mcid: row.mcid,
      chatid: row.chatid,
      permission: row.permission,
      nickname: row.nickname,
      clubgroup: row.clubgroup,
      createdAt: dateOf(row.createdAt),
    };
  }

  async logout(session: ClubSession): Promise<void> {
    await this.tokens.update({ id: session.tokenId }, { loggedOutAt: new Date() });
  }
}
