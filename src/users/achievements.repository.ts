import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import { type DbTime, isoTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';

export interface AchievementDefinition {
  id: number;
  title: string;
  description: string;
  hidden: boolean;
}

export interface UnlockInput {
  uuid: string;
  achievementId: number;
  unlockedAt: Date;
}

/** The achievement object (docs/game-server.md). */
export interface AchievementView {
  id: number;
  title: string;
  description: string;
  hidden: boolean;
  unlockedAt: string;
}

interface UnlockedRow {
  id: number;
  title: string;
  description: string;
  hidden: number | boolean;
  unlockedAt: DbTime;
}

// Served by UQ_achievement_unlocks_player_achievement (a player's few unlocks, sorted after the seek).
const UNLOCKED_SQL =
  'SELECT unlocked.achievement_id AS id, definition.title, definition.description, definition.hidden, unlocked.unlocked_at AS unlockedAt ' +
  'FROM achievement_unlocks unlocked INNER JOIN achievements definition ON definition.id = unlocked.achievement_id ' +
  'WHERE unlocked.player_uuid = ? ORDER BY unlocked.unlocked_at ASC, unlocked.achievement_id ASC';
const ACHIEVEMENT_TOTAL_SQL = 'SELECT COUNT(*) AS total FROM achievements';

function toAchievementView(row: UnlockedRow): AchievementView {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    // SQLite and MySQL hand booleans back as 0/1.
    hidden: row.hidden === true || row.hidden === 1,
    unlockedAt: isoTime(row.unlockedAt)!,
  };
}

/** Achievement definitions and unlocks: the one owner of `achievements` and `achievement_unlocks`. */
@Injectable()
export class AchievementsRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Which of `ids` are defined achievements. */
  async getDefinedIds(tx: Transaction, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) {
      return new Set();
    }
    const rows = await tx.all<{ id: number }>(`SELECT id FROM achievements WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
    return new Set(rows.map((row) => row.id));
  }

  async insertDefinitions(tx: Transaction, definitions: readonly AchievementDefinition[], now: Date): Promise<void> {
    if (definitions.length > 0) {
      const time = tx.time(now);
      await tx.run(
        `INSERT INTO achievements (id, title, description, hidden, created_at, updated_at) VALUES ${definitions.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        definitions.flatMap((definition) => [definition.id, definition.title, definition.description, definition.hidden ? 1 : 0, time, time]),
      );
    }
  }

  async updateDefinition(tx: Transaction, definition: AchievementDefinition, now: Date): Promise<void> {
    await tx.run('UPDATE achievements SET title = ?, description = ?, hidden = ?, updated_at = ? WHERE id = ?', [
      definition.title,
      definition.description,
      definition.hidden ? 1 : 0,
      tx.time(now),
      definition.id,
    ]);
  }

  /** Stores unlocks, skipping repeats (same player and achievement); returns how many were new. */
  async insertUnlocks(tx: Transaction, items: readonly UnlockInput[], now: Date): Promise<number> {
    const { affectedRows } = await tx.run(
      `${tx.insertIgnore} INTO achievement_unlocks (player_uuid, achievement_id, unlocked_at, created_at) VALUES ${items.map(() => '(?, ?, ?, ?)').join(', ')}`,
      items.flatMap((item) => [item.uuid.toLowerCase(), item.achievementId, tx.time(item.unlockedAt), tx.time(now)]),
    );
    return affectedRows;
  }

  /** A player's unlocked achievements, oldest first. */
  async getUnlocked(uuid: string): Promise<AchievementView[]> {
    return (await this.reader.all<UnlockedRow>(UNLOCKED_SQL, [uuid])).map(toAchievementView);
  }

  async count(): Promise<number> {
    return (await this.reader.one<{ total: number }>(ACHIEVEMENT_TOTAL_SQL))?.total ?? 0;
  }
}
