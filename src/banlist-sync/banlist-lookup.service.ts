import { Injectable } from '@nestjs/common';
import { msg } from '../common/errors/messages';
import { ApiError } from '../common/errors/api-error';
import { BanlistRepository, type MirroredBan } from './banlist.repository';
import type { BanView, BanlistUserView } from './banlist.view';

/** The read side of the mirror: 404 for what was never synced. */
@Injectable()
export class BanlistLookupService {
  constructor(private readonly banlist: BanlistRepository) {}

  async user(uuid: string): Promise<BanlistUserView> {
    const key = uuid.toLowerCase();
    const user = await this.banlist.getUser(key);
    if (!user) {
      throw ApiError.notFound(msg('banlist.playerNotSynced', { uuid: key }));
    }
    return user;
  }

  /** A player's bans in the mirror now, newest first; none for a player never synced. */
  bansOf(uuid: string): Promise<MirroredBan[]> {
    return this.banlist.getBansOfPlayer(uuid.toLowerCase());
  }

  async ban(banId: number): Promise<BanView> {
    const ban = await this.banlist.getBan(banId);
    if (!ban) {
      throw ApiError.notFound(msg('banlist.banNotFound', { banId }));
    }
    return ban;
  }
}
