import { Injectable } from '@nestjs/common';
import { msg } from '../common/errors/messages';
import { ApiError } from '../common/errors/api-error';
import { UnitOfWork } from '../database/unit-of-work';
import { AchievementDefinition, AchievementsRepository, AchievementView, UnlockInput } from './achievements.repository';
import { UsersService } from './users.service';

@Injectable()
export class AchievementsService {
  constructor(
    private readonly users: UsersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly repository: AchievementsRepository,
  ) {}

  /** Creates or replaces definitions by id, all in one transaction. */
  async define(definitions: readonly AchievementDefinition[]): Promise<number> {
    const duplicate = definitions.find((definition, index) => definitions.findIndex((other) => other.id === definition.id) !== index);
    if (duplicate) {
      throw ApiError.invalidField('achievements', msg('achievements.duplicate', { id: duplicate.id }));
    }
    await this.unitOfWork.transaction(async (tx) => {
      const existing = await this.repository.getDefinedIds(
        tx,
        definitions.map((definition) => definition.id),
      );
      const now = new Date();
      await this.repository.insertDefinitions(
        tx,
        definitions.filter((definition) => !existing.has(definition.id)),
        now,
      );
      for (const definition of definitions.filter((item) => existing.has(item.id))) {
        await this.repository.updateDefinition(tx, definition, now);
      }
    });
    return definitions.length;
  }

  /** Records unlocks atomically: an unknown achievement id rejects the whole batch; repeats are skipped. */
  async unlock(items: readonly UnlockInput[]): Promise<{ accepted: number; skipped: number }> {
    const accepted = await this.unitOfWork.transaction(async (tx) => {
      const ids = [...new Set(items.map((item) => item.achievementId))];
      const known = await this.repository.getDefinedIds(tx, ids);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) {
        throw ApiError.invalidField('unlocks', msg('achievements.unknown', { ids: unknown }));
      }
      return this.repository.insertUnlocks(tx, items, new Date());
    });
    return { accepted, skipped: items.length - accepted };
  }

  /** Unlocked achievements of a player that exists for `/users` (404 otherwise), oldest first. */
  async unlockedBy(uuid: string): Promise<{ data: AchievementView[]; unlocked: number; total: number }> {
    const player = await this.users.findExisting({ kind: 'uuid', value: uuid.toLowerCase() });
    const [data, total] = await Promise.all([this.repository.getUnlocked(player.uuid), this.repository.count()]);
    return { data, unlocked: data.length, total };
  }
}
