import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Transaction } from '../database/unit-of-work';
import { DataSource } from 'typeorm';
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
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reader: SqlReader,
  ) {}

  async existsForPlayer(playerUuid: string): Promise<boolean> {
    return (await this.reader.one(CREDENTIALS_SQL, [playerUuid])) !== undefined;
  }

  async getCredentials(playerUuid: string): Promise<AccountCredentials | null> {
    const row = await this.reader.one<{ id: number | string; passwordHash: string }>(CREDENTIALS_SQL, [playerUuid]);
    return row ? toCredentials(row) : null;
  }

  /** Creates an account without a token; returns its id. */
  async create(tx: Transaction, playerUuid: string, passwordHash: string, createdAt: Date): Promise<number> {
    const inserted = await tx.insert(ClubAccount, { playerUuid, passwordHash, nickname: null, clubgroup: 'default', currentTokenId: null, createdAt });
    return inserted.identifiers[0]?.id as number;
  }

  async setPassword(tx: Transaction, accountId: number, passwordHash: string): Promise<void> {
    await tx.update(ClubAccount, { id: accountId }, { passwordHash });
  }

  /** Deletes the account (its tokens first: see TokensRepository.deleteAccountTokens). */
  async delete(tx: Transaction, accountId: number): Promise<void> {
    await tx.delete(ClubAccount, { id: accountId });
  }

  async setNickname(accountId: number, nickname: string): Promise<void> {
    await this.dataSource.manager.update(ClubAccount, { id: accountId }, { nickname });
  }

  /** False when the player has no account. */
  async setGroup(playerUuid: string, group: ClubGroup): Promise<boolean> {
    const result = await this.dataSource.manager.update(ClubAccount, { playerUuid }, { clubgroup: group });
    return (result.affected ?? 0) > 0;
  }
}
