import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction';
import { communityServerMatcher, followListing, type ListedBan } from './community-bans-listing';
import { CommunityBanlistBansRepository } from './community-banlist-bans.repository';

/**
 * The ban-list sync's step for the community's own records (docs/bans-site.md, "Where the records
 * come from"), in the transaction that replaces the player's mirrored data: the mirror may drop a
 * ban, a community record never goes (it is kept, no longer in force).
 */
@Injectable()
export class CommunityBansSync {
  private readonly isCommunityServer: (server: string | null) => boolean;

  constructor(
    config: AppConfig,
    private readonly repository: CommunityBanlistBansRepository,
  ) {
    this.isCommunityServer = communityServerMatcher(config.COMMUNITY_BANLIST_SERVER);
  }

  /** `listed`: every ban the service lists for the player now (none when it has no record of the player). */
  async followIn(tx: Transaction, uuid: string, listed: readonly ListedBan[], now: Date): Promise<void> {
    const held = await this.repository.getHeldIn(
      tx,
      uuid,
      listed.map((ban) => ban.banId),
    );
    const { added, changed } = followListing(uuid, held, listed, this.isCommunityServer);
    for (const ban of added) {
      await this.repository.insert(
        tx,
        { origin: 'banlist-sync', sourceId: String(ban.banId), banId: ban.banId, uuid, type: ban.type, reason: ban.reason, bannedBy: ban.bannedBy, bannedAt: ban.bannedAt, bannedAtFrom: 'mirror' },
        now,
      );
    }
    for (const { banId, changes } of changed) {
      await this.repository.update(tx, banId, changes, now);
    }
  }
}
