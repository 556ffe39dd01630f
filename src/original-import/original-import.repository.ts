import { Injectable } from '@nestjs/common';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { ClubGroup } from '../club/club-account.entity';
import type { AchievementDefinition } from '../users/achievements.repository';

/** What a second run compares of a club account with what the import wrote. */
export interface ImportedAccount {
  id: number;
  passwordHash: string;
  nickname: string | null;
  clubgroup: ClubGroup;
}

const LINK_SQL = 'SELECT target_id AS targetId, imported_state AS importedState FROM original_import_links WHERE source_table = ? AND source_id = ?';
const ACCOUNT_SQL = 'SELECT id, password_hash AS passwordHash, nickname, clubgroup FROM club_accounts WHERE player_uuid = ?';
const ACHIEVEMENT_SQL = 'SELECT id, title, description, hidden FROM achievements WHERE id = ?';
const UNLOCK_SQL = 'SELECT unlocked_at AS unlockedAt FROM achievement_unlocks WHERE player_uuid = ? AND achievement_id = ?';
const NEXT_ID_SQL = {
  cities: 'SELECT MAX(id) AS highest FROM cities',
  city_requests: 'SELECT MAX(id) AS highest FROM city_requests',
  achievements: 'SELECT MAX(id) AS highest FROM achievements',
} as const;
const PLAYER_SEEN_SQL = 'SELECT uuid FROM players WHERE uuid = ? AND last_login >= ?';

/**
 * The import's own table (the links that remember what the import made of each row) and the reads
 * it compares a second run with. Cities, accounts, players and achievements are written through
 * their features' repositories. Everything runs in the caller's transaction.
 */
@Injectable()
export class OriginalImportRepository {
  async getLink(tx: Transaction, table: string, sourceId: string): Promise<{ targetId: number; importedState: string } | undefined> {
    const row = await tx.one<{ targetId: number; importedState: string }>(LINK_SQL, [table, sourceId]);
    return row;
  }

  async saveLink(tx: Transaction, table: string, sourceId: string, targetId: number, importedState: string): Promise<void> {
    await tx.run('INSERT INTO original_import_links (source_table, source_id, target_id, imported_state, created_at) VALUES (?, ?, ?, ?, ?)', [
      table,
      sourceId,
      targetId,
      importedState,
      tx.time(new Date()),
    ]);
  }

  /**
   * The id the import gives the next row of a table: one above the highest in use. Assigned by the
   * import rather than the database, so a dry run (rolled back) reports the very ids a real run
   * then creates, which a database sequence would not (MariaDB does not give back the ids a
   * rolled-back insert consumed). Called in the transaction that inserts, under the cities lock
   * for cities and requests.
   */
  async nextId(tx: Transaction, table: 'cities' | 'city_requests' | 'achievements'): Promise<number> {
    const row = await tx.one<{ highest: number | null }>(NEXT_ID_SQL[table]);
    return (row?.highest ?? 0) + 1;
  }

  async getAccount(tx: Transaction, playerUuid: string): Promise<ImportedAccount | undefined> {
    const row = await tx.one<{ id: number; passwordHash: string; nickname: string | null; clubgroup: ClubGroup }>(ACCOUNT_SQL, [playerUuid]);
    return row;
  }

  async getAchievement(tx: Transaction, id: number): Promise<AchievementDefinition | undefined> {
    const row = await tx.one<{ id: number; title: string; description: string; hidden: number | boolean }>(ACHIEVEMENT_SQL, [id]);
    return row ? { id: row.id, title: row.title, description: row.description, hidden: row.hidden === true || row.hidden === 1 } : undefined;
  }

  async getUnlockTime(tx: Transaction, uuid: string, achievementId: number): Promise<Date | undefined> {
    const row = await tx.one<{ unlockedAt: DbTime }>(UNLOCK_SQL, [uuid, achievementId]);
    return row ? dateOf(row.unlockedAt) : undefined;
  }

  /** Whether the player has a login on or after `since` (exists for this service). */
  async hasLoginSince(tx: Transaction, uuid: string, since: Date): Promise<boolean> {
    return (await tx.all<unknown>(PLAYER_SEEN_SQL, [uuid, tx.time(since)])).length > 0;
  }
}
