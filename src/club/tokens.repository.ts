import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/unit-of-work';
import { LessThan } from 'typeorm';
import { DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { dateOf } from '../database/transformers';
import { ClubAccount, ClubGroup } from './club-account.entity';
import type { ClubSession } from './club-session';
import { ClubToken } from './club-token.entity';

/** A club token with its account and player, whatever its state; the service decides whether it is valid. */
export interface TokenSession extends ClubSession {
  expiresAt: Date;
  loggedOut: boolean;
  /** The account's newest token (issuing one supersedes the rest). */
  current: boolean;
}

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

// Every authenticated request passes here: one indexed join, no hydration.
const SESSION_SQL = `
  SELECT t.id AS tokenId, t.expires_at AS expiresAt, t.logged_out_at AS loggedOutAt,
         a.id AS accountId, a.current_token_id AS currentTokenId, a.nickname AS nickname, a.clubgroup AS clubgroup,
         a.created_at AS createdAt, p.uuid AS uuid, p.mcid AS mcid, p.chatid AS chatid, p.permission AS permission
  FROM club_tokens t
  JOIN club_accounts a ON a.id = t.account_id
  JOIN players p ON p.uuid = a.player_uuid
  WHERE t.token_hash = ?`;
const SESSION_BY_ID_SQL = SESSION_SQL.replace('WHERE t.token_hash = ?', 'WHERE t.id = ?');

function toTokenSession(row: SessionRow): TokenSession {
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
    expiresAt: dateOf(row.expiresAt),
    loggedOut: row.loggedOutAt !== null,
    current: row.currentTokenId !== null && Number(row.currentTokenId) === Number(row.tokenId),
  };
}

/** Club tokens (sign-in sessions), stored as hashes. User keys have their own repository in src/user-keys/. */
@Injectable()
export class TokensRepository {
  /**
   * Every authenticated request reads its session. Tokens, accounts and players are written in
   * many places (sign-in, logout, password and account changes, login batches), so the cache is
   * valid only while nothing at all was committed: on a SQLite file, whose change counter costs a
   * microsecond; never on MySQL. Expiry is checked by the caller on every request.
   */
  private readonly sessions: ReadCache<TokenSession | null>;

  constructor(
    private readonly reader: SqlReader,
    versions: DataVersions,
  ) {
    this.sessions = new ReadCache(versions, 'any-write');
  }

  /** Stores a token and makes it the account's current one (superseding the rest); returns its id. */
  async createCurrentToken(tx: Transaction, accountId: number, tokenHash: string, issuedAt: Date, expiresAt: Date): Promise<number> {
    const inserted = await tx.insert(ClubToken, { accountId, tokenHash, issuedAt, expiresAt, loggedOutAt: null });
    const tokenId = inserted.identifiers[0]?.id as number;
    await tx.update(ClubAccount, { id: accountId }, { currentTokenId: tokenId });
    return tokenId;
  }

  async deleteTokensExpiredBefore(tx: Transaction, accountId: number, before: Date): Promise<void> {
    await tx.delete(ClubToken, { accountId, expiresAt: LessThan(before) });
  }

  async deleteAccountTokens(tx: Transaction, accountId: number): Promise<void> {
    await tx.update(ClubAccount, { id: accountId }, { currentTokenId: null });
    await tx.delete(ClubToken, { accountId });
  }

  /** Cached (see `sessions`); the session is shared, not to be mutated. */
  getSession(tokenHash: string): Promise<TokenSession | null> {
    return this.sessions.get(tokenHash, async () => {
      const row = await this.reader.one<SessionRow>(SESSION_SQL, [tokenHash]);
      return row ? toTokenSession(row) : null;
    });
  }

  /** The same as getSession, by the token's id (a console session holds the id, never the token); not cached. */
  async getSessionById(tokenId: number): Promise<TokenSession | null> {
    const row = await this.reader.one<SessionRow>(SESSION_BY_ID_SQL, [tokenId]);
    return row ? toTokenSession(row) : null;
  }

  async logOut(tx: Transaction, tokenId: number, at: Date): Promise<void> {
    await tx.update(ClubToken, { id: tokenId }, { loggedOutAt: at });
  }
}
