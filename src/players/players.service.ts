import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { isUniqueViolation } from '../database/database-errors';
import { Player } from './player.entity';

/** The shared player registry: who a uuid or a game id refers to. */
@Injectable()
export class PlayersService {
  constructor(@InjectRepository(Player) private readonly players: Repository<Player>) {}

  findByUuid(uuid: string): Promise<Player | null> {
    return this.players.findOneBy({ uuid: uuid.toLowerCase() });
  }

  /** The current holder of a game id: of every player whose latest name it is, the one seen last. */
  findByMcid(mcid: string): Promise<Player | null> {
    return this.players
      .createQueryBuilder('player')
      .where('player.mcid_key = :key', { key: mcid.toLowerCase() })
      .orderBy('player.last_login', 'DESC')
      .addOrderBy('player.created_at', 'DESC')
      .limit(1)
      .getOne();
  }

  /** Records a player seen for the first time (e.g. when a user key is issued); keeps an existing row. */
  async ensure(uuid: string, mcid: string, manager?: EntityManager): Promise<void> {
    const repository = manager ? manager.getRepository(Player) : this.players;
    const key = uuid.toLowerCase();
    const existing = await repository.findOneBy({ uuid: key });
    if (existing) {
      // A player without login records has no better source for the name than the game server now.
      if (!existing.firstLogin && existing.mcid !== mcid) {
        await repository.update({ uuid: key }, { mcid, mcidKey: mcid.toLowerCase() });
      }
      return;
    }
    try {
      await repository.insert({
        uuid: key,
        mcid,
        mcidKey: mcid.toLowerCase(),
        chatid: null,
        permission: null,
        firstLogin: null,
        lastLogin: null,
        createdAt: new Date(),
      });
    } catch (error) {
      if (!isUniqueViolation(error)) {
        throw error;
      }
    }
  }
}
