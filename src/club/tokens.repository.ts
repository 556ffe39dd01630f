import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import { DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { ClubGroup } from './club-account.entity';
import type { ClubSession } from './club-session';

/** A club token with its account and player, whatever its state; the service decides whether it is valid. */
export interface TokenSession extends ClubSession {
  expiresAt: Date;
  loggedOut: boolean;
  /** The account's newest token (issuing one supersedes the rest). */
  current: boolean;
}

interface SessionRow {
  tokenId: number;
  expiresAt: DbTime;
  loggedOutAt: DbTime | null;
  accountId: number;
  currentTokenId: number | null;
  nickname: string | null;
  clubgroup: ClubGroup;
  createdAt: DbTime;
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
    accountId: row.accountId,
    tokenId: row.tokenId,
    playerUuid: row.uuid,
    mcid: row.mcid,
    chatid: row.chatid,
    permission: row.permission,
    nickname: row.nickname,
    clubgroup: row.clubgroup,
    createdAt: dateOf(row.createdAt),
    expiresAt: dateOf(row.expiresAt),
    loggedOut: row.loggedOutAt !== null,
    current: row.currentTokenId === row.tokenId,
  };
}

/**
 * Club tokens (sign-in sessions), stored as hashes: the one writer of `club_tokens` (the account's
 * current token is ClubAccountsRepository's). User keys have their own repository in src/user-keys/.
 */
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

  /** Stores a token; returns its id (ClubAccountsRepository.setCurrentToken makes it the current one). */
  async create(tx: Transaction, accountId: number, tokenHash: string, issuedAt: Date, expiresAt: Date): Promise<number> {
    const { insertId } = await tx.run('INSERT INTO club_tokens (account_id, token_hash, issued_at, expires_at, logged_out_at) VALUES (?, ?, ?, ?, NULL)', [
      accountId,
      tokenHash,
      tx.time(issuedAt),
      tx.time(expiresAt),
    ]);
    return insertId!;
  }

  async deleteTokensExpiredBefore(tx: Transaction, accountId: number, before: Date): Promise<void> {
    await tx.run('DELETE FROM club_tokens WHERE account_id = ? AND expires_at < ?', [accountId, tx.time(before)]);
  }

  /** Every token of the account (after ClubAccountsRepository.setCurrentToken(null), which points at one of them). */
  async deleteAccountTokens(tx: Transaction, accountId: number): Promise<void> {
    await tx.run('DELETE FROM club_tokens WHERE account_id = ?', [accountId]);
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
    await tx.run('UPDATE club_tokens SET logged_out_at = ? WHERE id = ?', [tx.time(at), tokenId]);
  }
}
