import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import { SqlReader } from '../database/sql-reader';
import type { ClubGroup } from './club-account.entity';

/** What a password check needs of an account. */
export interface AccountCredentials {
  id: number;
  passwordHash: string;
}

const CREDENTIALS_SQL = 'SELECT id, password_hash AS passwordHash FROM club_accounts WHERE player_uuid = ?';

/** Club-site accounts, one per player: the one writer of `club_accounts`. */
@Injectable()
export class ClubAccountsRepository {
  constructor(private readonly reader: SqlReader) {}

  async existsForPlayer(playerUuid: string): Promise<boolean> {
    return (await this.reader.one(CREDENTIALS_SQL, [playerUuid])) !== undefined;
  }

  async getCredentials(playerUuid: string): Promise<AccountCredentials | null> {
    return (await this.reader.one<AccountCredentials>(CREDENTIALS_SQL, [playerUuid])) ?? null;
  }

  /** Creates an account without a token; returns its id. The group is `default` but for imported accounts. */
  async create(tx: Transaction, playerUuid: string, passwordHash: string, createdAt: Date, clubgroup: ClubGroup = 'default'): Promise<number> {
    const { insertId } = await tx.run(
      'INSERT INTO club_accounts (player_uuid, password_hash, nickname, clubgroup, current_token_id, created_at) VALUES (?, ?, NULL, ?, NULL, ?)',
      [playerUuid, passwordHash, clubgroup, tx.time(createdAt)],
    );
    return insertId!;
  }

  async setPassword(tx: Transaction, accountId: number, passwordHash: string): Promise<void> {
    await tx.run('UPDATE club_accounts SET password_hash = ? WHERE id = ?', [passwordHash, accountId]);
  }

  /**
   * Whether the account still exists, read inside the caller's transaction; on MySQL the row stays
   * locked until it ends, so a deletion racing a sign-in or a password change waits for it (or
   * happened before, and then this says false) instead of failing the token's foreign key.
   * SQLite's write queue already serialises transactions.
   */
  async lockExisting(tx: Transaction, accountId: number): Promise<boolean> {
    return (await tx.one(`SELECT id FROM club_accounts WHERE id = ?${tx.forUpdate}`, [accountId])) !== undefined;
  }

  /**
   * Makes a token the account's current one, superseding the rest; null supersedes all (before
   * TokensRepository.deleteAccountTokens). Tokens are written by TokensRepository, the account's
   * pointer to them only here.
   */
  async setCurrentToken(tx: Transaction, accountId: number, tokenId: number | null): Promise<void> {
    await tx.run('UPDATE club_accounts SET current_token_id = ? WHERE id = ?', [tokenId, accountId]);
  }

  /** Deletes the account (its tokens first: see TokensRepository.deleteAccountTokens); false when it was already gone. */
  async delete(tx: Transaction, accountId: number): Promise<boolean> {
    return (await tx.run('DELETE FROM club_accounts WHERE id = ?', [accountId])).affectedRows > 0;
  }

  /** False when the account is gone (deleted a moment before). */
  async setNickname(tx: Transaction, accountId: number, nickname: string): Promise<boolean> {
    return (await tx.run('UPDATE club_accounts SET nickname = ? WHERE id = ?', [nickname, accountId])).affectedRows > 0;
  }

  /** False when the player has no account. */
  async setGroup(tx: Transaction, playerUuid: string, group: ClubGroup): Promise<boolean> {
    return (await tx.run('UPDATE club_accounts SET clubgroup = ? WHERE player_uuid = ?', [group, playerUuid])).affectedRows > 0;
  }
}
