import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, Repository } from 'typeorm';
import { UnitOfWork } from '../database/unit-of-work';
import { Player } from '../players/player.entity';
import { BanlistBan } from './banlist-ban.entity';
import { BanlistPlayer } from './banlist-player.entity';
import { CLEAN_REPUTATION, UpstreamPlayer } from './upstream-player';

/** What a sync run reads and writes of the mirrored ban-list data; the endpoints read through BanlistLookupService. */
@Injectable()
export class BanlistStore {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(Player) private readonly players: Repository<Player>,
  ) {}

  /** Every player that exists for `/users` (has a login record): the players a run refreshes. */
  async knownPlayerUuids(): Promise<string[]> {
    const rows = await this.players.find({ select: { uuid: true }, where: { firstLogin: Not(IsNull()) }, order: { uuid: 'ASC' } });
    return rows.map((row) => row.uuid);
  }

  /**
   * Replaces a player's data with a successful fetch (`null`: the upstream has no record, so a
   * clean one) in one transaction. Returns how many of the player's bans were lifted and removed.
   */
  replace(uuid: string, upstream: UpstreamPlayer | null, syncedAt: Date): Promise<number> {
    return this.unitOfWork.transaction(async (manager) => {
      await manager.upsert(
        BanlistPlayer,
        { uuid, upstreamName: upstream?.name ?? null, reputation: upstream?.reputation ?? CLEAN_REPUTATION, syncedAt },
        ['uuid'],
      );
      const incoming = upstream?.bans ?? [];
      const keep = new Set(incoming.map((ban) => ban.banId));
      const current = await manager.find(BanlistBan, { select: { banId: true }, where: { playerUuid: uuid } });
      const lifted = current.map((ban) => ban.banId).filter((banId) => !keep.has(banId));
      if (lifted.length > 0) {
        await manager.delete(BanlistBan, { banId: In(lifted) });
      }
      if (incoming.length > 0) {
        // An upsert on the upstream id: a ban the upstream now files under this player moves here.
        await manager.upsert(
          BanlistBan,
          incoming.map((ban) => ({ ...ban, playerUuid: uuid, syncedAt })),
          ['banId'],
        );
      }
      return lifted.length;
    });
  }
}
