import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { SqlReader } from '../database/sql-reader';
import { isoTime } from '../database/transformers';
import { UnitOfWork } from '../database/unit-of-work';
import { datetimeParameter, executeCountingRows, insertIgnore } from '../database/affected-rows';
import { Achievement } from './achievement.entity';
import { UsersService } from './users.service';

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
const TOTAL_SQL = 'SELECT COUNT(*) AS total FROM achievements';

/** The achievement object of contract 4. */
export interface AchievementView {
  id: number;
  title: string;
  description: string;
  hidden: boolean;
  unlockedAt: string;
}

@Injectable()
export class AchievementsService {
  constructor(
    private readonly users: UsersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: SqlReader,
  ) {}

  /** Creates or replaces definitions by id, all in one transaction. */
  async define(definitions: readonly AchievementDefinition[]): Promise<number> {
    const duplicate = definitions.find((definition, index) => definitions.findIndex((other) => other.id === definition.id) !== index);
    if (duplicate) {
      throw ApiError.invalidField('achievements', msg('achievements.duplicate', { id: duplicate.id }));
    }
    await this.unitOfWork.transaction(async (manager) => {
      const repository = manager.getRepository(Achievement);
      const existing = new Set((await repository.find({ select: { id: true }, where: { id: In(definitions.map((definition) => definition.id)) } })).map((row) => row.id));
      const now = new Date();
      const fresh = definitions.filter((definition) => !existing.has(definition.id));
      if (fresh.length > 0) {
        await repository.insert(fresh.map((definition) => ({ ...definition, createdAt: now, updatedAt: now })));
      }
      for (const definition of definitions.filter((item) => existing.has(item.id))) {
        await repository.update({ id: definition.id }, { title: definition.title, description: definition.description, hidden: definition.hidden, updatedAt: now });
      }
    });
    return definitions.length;
  }

  /** Records unlocks atomically: an unknown achievement id rejects the whole batch; repeats are skipped. */
  async unlock(items: readonly UnlockInput[]): Promise<{ accepted: number; skipped: number }> {
    const accepted = await this.unitOfWork.transaction(async (manager) => {
      const ids = [...new Set(items.map((item) => item.achievementId))];
      const known = new Set((await manager.getRepository(Achievement).find({ select: { id: true }, where: { id: In(ids) } })).map((row) => row.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) {
        throw ApiError.invalidField('unlocks', msg('achievements.unknown', { ids: unknown }));
      }
      const now = new Date();
      return executeCountingRows(
        manager,
        `${insertIgnore(manager)} INTO achievement_unlocks (player_uuid, achievement_id, unlocked_at, created_at) VALUES ${items.map(() => '(?, ?, ?, ?)').join(', ')}`,
        items.flatMap((item) => [item.uuid.toLowerCase(), item.achievementId, datetimeParameter(manager, item.unlockedAt), datetimeParameter(manager, now)]),
      );
    });
    return { accepted, skipped: items.length - accepted };
  }

  /** Unlocked achievements of a player that exists for `/users` (404 otherwise), oldest first. */
  async unlockedBy(uuid: string): Promise<{ data: AchievementView[]; unlocked: number; total: number }> {
    const player = await this.users.findExisting({ kind: 'uuid', value: uuid.toLowerCase() });
    const [rows, count] = await Promise.all([
      this.reader.all<UnlockedRow>(UNLOCKED_SQL, [player.uuid]),
      this.reader.one<{ total: number | string }>(TOTAL_SQL),
    ]);
    const data = rows.map((row) => ({
      id: Number(row.id),
      title: row.title,
      description: row.description,
      // SQLite and MySQL hand booleans back as 0/1.
      hidden: row.hidden === true || Number(row.hidden) === 1,
      unlockedAt: isoTime(row.unlockedAt)!,
    }));
    return { data, unlocked: data.length, total: Number(count?.total ?? 0) };
  }
}
