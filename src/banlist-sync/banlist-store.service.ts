import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, Repository } from 'typeorm';
import { UnitOfWork } from '../database/unit-of-work';
import { Player } from '../players/player.entity';
import { BanlistBan } from './banlist-ban.entity';
import { BanlistPlayer } from './banlist-player.entity';
import { BanView, BanlistUserView, toBanView, toBanlistUserView } from './banlist.view';
import { CLEAN_REPUTATION, UpstreamPlayer } from './upstream-player';

/** Reads and writes of the mirrored ban-list data. */
@Injectable()
export class BanlistStore {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(Player) private readonly players: Repository<Player>,
    @InjectRepository(BanlistPlayer) private readonly banlistPlayers: Repository<BanlistPlayer>,
    @InjectRepository(BanlistBan) private readonly bans: Repository<BanlistBan>,
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

  async findUser(uuid: string): Promise<BanlistUserView | null> {
    const player = await this.banlistPlayers.findOneBy({ uuid });
    if (!player) {
      return null;
    }
    const bans = await this.bans.find({ select: { banId: true, type: true }, where: { playerUuid: uuid } });
    return toBanlistUserView(player, bans);
  }

  async findBan(banId: number): Promise<BanView | null> {
    const ban = await this.bans.findOneBy({ banId });
    if (!ban) {
      return null;
    }
    const [known, mirrored] = await Promise.all([
      this.players.findOne({ select: { uuid: true, mcid: true }, where: { uuid: ban.playerUuid, firstLogin: Not(IsNull()) } }),
      this.banlistPlayers.findOne({ select: { uuid: true, upstreamName: true }, where: { uuid: ban.playerUuid } }),
    ]);
    return toBanView(ban, known?.mcid ?? null, mirrored?.upstreamName ?? null);
  }
}
