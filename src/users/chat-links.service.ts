import { Injectable } from '@nestjs/common';
import { ApiError, detail } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { isUniqueViolation } from '../database/database-errors';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersRepository } from '../players/players.repository';
import { PlayersService } from '../players/players.service';

export interface ChatLinkView {
  uuid: string;
  chatid: string | null;
}

/** Links a player to their chat account (one chat id per player, one player per chat id). */
@Injectable()
export class ChatLinksService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly repository: PlayersRepository,
    private readonly players: PlayersService,
  ) {}

  async link(uuid: string, chatid: string): Promise<ChatLinkView> {
    const playerUuid = uuid.toLowerCase();
    try {
      return await this.unitOfWork.transaction(async (tx) => {
        await this.requirePlayer(tx, playerUuid);
        const holder = await this.repository.getChatHolder(tx, chatid);
        if (holder && holder !== playerUuid) {
          throw conflict(chatid);
        }
        await this.players.setChatid(tx, playerUuid, chatid);
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
    return this.unitOfWork.transaction(async (tx) => {
      await this.requirePlayer(tx, playerUuid);
      await this.players.setChatid(tx, playerUuid, null);
      return { uuid: playerUuid, chatid: null };
    });
  }

  private async requirePlayer(tx: Transaction, uuid: string): Promise<void> {
    if (!(await this.repository.getInTransaction(tx, uuid))) {
      throw ApiError.notFound(msg('users.notFoundByUuid', { uuid }));
    }
  }
}

function conflict(chatid: string): ApiError {
  return ApiError.conflict(msg('users.chatidTaken', { chatid }), [detail('chatid', 'users.chatidTaken.detail')]);
}
