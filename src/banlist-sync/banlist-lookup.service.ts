import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { BanlistStore } from './banlist-store.service';
import type { BanView, BanlistUserView } from './banlist.view';

/** The read side of the mirror: 404 for what was never synced. */
@Injectable()
export class BanlistLookupService {
  constructor(private readonly store: BanlistStore) {}

  async user(uuid: string): Promise<BanlistUserView> {
    const user = await this.store.findUser(uuid.toLowerCase());
    if (!user) {
      throw ApiError.notFound(`No ban-list data for player ${uuid.toLowerCase()}: the player was never synced.`);
    }
    return user;
  }

  async ban(banId: number): Promise<BanView> {
    const ban = await this.store.findBan(banId);
    if (!ban) {
      throw ApiError.notFound(`No ban ${banId} in the ban-list mirror.`);
    }
    return ban;
  }
}
