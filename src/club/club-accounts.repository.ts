import { Injectable } from '@nestjs/common';
import { isMysql } from '../database/affected-rows';
import type { Transaction } from '../database/unit-of-work';
import { SqlReader } from '../database/sql-reader';
import { ClubAccount, ClubGroup } from './club-account.entity';

/** What a password check needs of an account. */
export interface AccountCredentials {
  id: number;
  passwordHash: string;
}

const CREDENTIALS_SQL = 'SELECT id, password_hash AS passwordHash FROM club_accounts WHERE player_uuid = ?';

function toCredentials(row: { id: number | string; passwordHash: string }): AccountCredentials {
  return { id: Number(row.id), passwordHash: row.passwordHash };
}

/** Club-site accounts: one per player. */
@Injectable()
export class ClubAccountsRepository {
  constructor(private readonly reader: SqlReader) {}

  async existsForPlayer(playerUuid: string): Promise<boolean> {
    return (await this.reader.one(CREDENTIALS_SQL, [playerUuid])) !== undefined;
  }

  async getCredentials(playerUuid: string): Promise<AccountCredentials | null> {
    const row = await this.reader.one<{ id: number | string; passwordHash: string }>(CREDENTIALS_SQL, [playerUuid]);
    return row ? toCredentials(row) : null;
  }

  /** Creates an account without a token; returns its id. The group is `default` but for imported accounts. */
  async create(tx: Transaction, playerUuid: string, passwordHash: string, createdAt: Date, clubgroup: ClubGroup = 'default'): Promise<number> {
    const inserted = await tx.insert(ClubAccount, { playerUuid, passwordHash, nickname: null, clubgroup, currentTokenId: null, createdAt });
    return inserted.identifiers[0]?.id as number;
  }

  async setPassword(tx: Transaction, accountId: number, passwordHash: string): Promise<void> {
    await tx.update(ClubAccount, { id: accountId }, { passwordHash });
  }

  /**
   * Whether the account still exists, read inside the caller's transaction; on MySQL the row stays
   * locked until it ends, so a deletion racing a sign-in or a password change waits for it (or
   * happened before, and then this says false) instead of failing the token's foreign key.
   * SQLite's write queue already serialises transactions.
   */
  async lockExisting(tx: Transaction, accountId: number): Promise<boolean> {
    const sql = `SELECT id FROM club_accounts WHERE id = ?${isMysql(tx) ? ' FOR UPDATE' : ''}`;
    const rows = await tx.query<unknown[]>(sql, [accountId]);
    return rows.length > 0;
  }

  /** Deletes the account (its tokens first: see TokensRepository.deleteAccountTokens); false when it was already gone. */
  async delete(tx: Transaction, accountId: number): Promise<boolean> {
    const result = await tx.delete(ClubAccount, { id: accountId });
    return (result.affected ?? 0) > 0;
  }

  /** False when the account is gone (deleted a moment before). */
  async setNickname(tx: Transaction, accountId: number, nickname: string): Promise<boolean> {
    const result = await tx.update(ClubAccount, { id: accountId }, { nickname });
    return (result.affected ?? 0) > 0;
  }

  /** False when the player has no account. */
  async setGroup(tx: Transaction, playerUuid: string, group: ClubGroup): Promise<boolean> {
    const result = await tx.update(ClubAccount, { playerUuid }, { clubgroup: group });
    return (result.affected ?? 0) > 0;
  }
}
