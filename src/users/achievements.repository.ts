import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { datetimeParameter, executeCountingRows, insertIgnore } from '../database/affected-rows';
import { SqlReader } from '../database/sql-reader';
import { isoTime } from '../database/transformers';
import type { Transaction } from '../database/unit-of-work';
import { Achievement } from './achievement.entity';

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
  id: number | string;
  title: string;
  description: string;
  hidden: number | boolean | string;
  unlockedAt: Date | string;
}

// Served by UQ_achievement_unlocks_player_achievement (a player's few unlocks, sorted after the seek).
const UNLOCKED_SQL =
  'SELECT unlocked.achievement_id AS id, definition.title, definition.description, definition.hidden, unlocked.unlocked_at AS unlockedAt ' +
  'FROM achievement_unlocks unlocked INNER JOIN achievements definition ON definition.id = unlocked.achievement_id ' +
  'WHERE unlocked.player_uuid = ? ORDER BY unlocked.unlocked_at ASC, unlocked.achievement_id ASC';
const ACHIEVEMENT_TOTAL_SQL = 'SELECT COUNT(*) AS total FROM achievements';

function toAchievementView(row: UnlockedRow): AchievementView {
  return {
    id: Number(row.id),
    title: row.title,
    description: row.description,
    // SQLite and MySQL hand booleans back as 0/1.
    hidden: row.hidden === true || Number(row.hidden) === 1,
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
    const rows = await tx.find(Achievement, { select: { id: true }, where: { id: In([...ids]) } });
    return new Set(rows.map((row) => row.id));
  }

  async insertDefinitions(tx: Transaction, definitions: readonly AchievementDefinition[], now: Date): Promise<void> {
    if (definitions.length > 0) {
      await tx.insert(
        Achievement,
        definitions.map((definition) => ({ ...definition, createdAt: now, updatedAt: now })),
      );
    }
  }

  async updateDefinition(tx: Transaction, definition: AchievementDefinition, now: Date): Promise<void> {
    await tx.update(Achievement, { id: definition.id }, { title: definition.title, description: definition.description, hidden: definition.hidden, updatedAt: now });
  }

  /** Stores unlocks, skipping repeats (same player and achievement); returns how many were new. */
  async insertUnlocks(tx: Transaction, items: readonly UnlockInput[], now: Date): Promise<number> {
    return executeCountingRows(
      tx,
      `${insertIgnore(tx)} INTO achievement_unlocks (player_uuid, achievement_id, unlocked_at, created_at) VALUES ${items.map(() => '(?, ?, ?, ?)').join(', ')}`,
      items.flatMap((item) => [item.uuid.toLowerCase(), item.achievementId, datetimeParameter(tx, item.unlockedAt), datetimeParameter(tx, now)]),
    );
  }

  /** A player's unlocked achievements, oldest first. */
  async getUnlocked(uuid: string): Promise<AchievementView[]> {
    return (await this.reader.all<UnlockedRow>(UNLOCKED_SQL, [uuid])).map(toAchievementView);
  }

  async count(): Promise<number> {
    return Number((await this.reader.one<{ total: number | string }>(ACHIEVEMENT_TOTAL_SQL))?.total ?? 0);
  }
}
