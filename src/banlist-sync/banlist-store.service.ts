import { Injectable } from '@nestjs/common';
import { CommunityBansSync } from '../community-bans/community-bans-sync';
import { UnitOfWork } from '../database/unit-of-work';
import { BanlistRepository } from './banlist.repository';
import type { UpstreamPlayer } from './upstream-player';

/** What a sync run reads and writes of the mirrored ban-list data; the endpoints read through BanlistLookupService. */
@Injectable()
export class BanlistStore {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly banlist: BanlistRepository,
    private readonly communityBans: CommunityBansSync,
  ) {}

  /** Every player that exists for `/users` (has a login record): the players a run refreshes. */
  knownPlayerUuids(): Promise<string[]> {
    return this.banlist.getKnownPlayerUuids();
  }

  /**
   * Replaces a player's data with a successful fetch (`null`: the upstream has no record, so a
   * clean one) in one transaction, and the community's own records of the player follow it in the
   * same transaction (docs/bans-site.md). Returns how many of the player's bans were lifted and
   * removed from the mirror.
   */
  replace(uuid: string, upstream: UpstreamPlayer | null, syncedAt: Date): Promise<number> {
    return this.unitOfWork.transaction(async (tx) => {
      const removed = await this.banlist.replacePlayer(tx, uuid, upstream, syncedAt);
      await this.communityBans.followIn(tx, uuid, upstream?.bans ?? [], syncedAt);
      return removed;
    });
  }
}
