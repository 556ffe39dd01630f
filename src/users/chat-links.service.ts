import { Injectable } from '@nestjs/common';
import { ApiError, detail } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { isUniqueViolation } from '../database/database-errors';
import { DataVersions } from '../database/data-versions';
import { UnitOfWork } from '../database/unit-of-work';
import { Player } from '../players/player.entity';

export interface ChatLinkView {
  uuid: string;
  chatid: string | null;
}

/** Links a player to their chat account (one chat id per player, one player per chat id). */
@Injectable()
export class ChatLinksService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly versions: DataVersions,
  ) {}

  async link(uuid: string, chatid: string): Promise<ChatLinkView> {
    const playerUuid = uuid.toLowerCase();
    try {
      return await this.unitOfWork.transaction(async (manager) => {
        const repository = manager.getRepository(Player);
        await this.requirePlayer(repository.existsBy({ uuid: playerUuid }), playerUuid);
        const holder = await repository.findOne({ select: { uuid: true }, where: { chatid } });
        if (holder && holder.uuid !== playerUuid) {
          throw conflict(chatid);
        }
        await repository.update({ uuid: playerUuid }, { chatid });
        await this.versions.bump(manager, 'players');
        return { uuid: playerUuid, chatid };
      });
    } catch (error) {
      // Two players linking one chat id at once: the unique index decides, the loser gets 409.
      if (isUniqueViolation(error)) {
        throw conflict(chatid);
      }
      throw error;
    }
  }

  async unlink(uuid: string): Promise<ChatLinkView> {
    const playerUuid = uuid.toLowerCase();
    return this.unitOfWork.transaction(async (manager) => {
      const repository = manager.getRepository(Player);
      await this.requirePlayer(repository.existsBy({ uuid: playerUuid }), playerUuid);
      await repository.update({ uuid: playerUuid }, { chatid: null });
      await this.versions.bump(manager, 'players');
      return { uuid: playerUuid, chatid: null };
    });
  }

  private async requirePlayer(exists: Promise<boolean>, uuid: string): Promise<void> {
    if (!(await exists)) {
      throw ApiError.notFound(msg('users.notFoundByUuid', { uuid }));
    }
  }
}

function conflict(chatid: string): ApiError {
  return ApiError.conflict(msg('users.chatidTaken', { chatid }), [detail('chatid', 'users.chatidTaken.detail')]);
}
