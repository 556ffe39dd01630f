import { Injectable } from '@nestjs/common';
import { type CommunityBanFilter, type CommunityBanRecord, CommunityBanlistBansRepository } from './community-banlist-bans.repository';

export type { CommunityBanFilter, CommunityBanRecord } from './community-banlist-bans.repository';

/**
 * What the bans site and the moderation API read of the community's own ban-list records
 * (docs/bans-site.md): lists by filter, newest first, with their counts; a player's records; one
 * record by ban id.
 */
@Injectable()
export class CommunityBansReader {
  constructor(private readonly repository: CommunityBanlistBansRepository) {}

  /** Newest first; `limit` null: every record the filter selects. */
  list(filter: CommunityBanFilter, limit: number | null): Promise<CommunityBanRecord[]> {
    return this.repository.list(filter, limit);
  }

  count(filter: CommunityBanFilter): Promise<number> {
    return this.repository.count(filter);
  }

  /** Every record of the player (every type and state), newest first. */
  forPlayer(uuid: string): Promise<CommunityBanRecord[]> {
    return this.repository.listForPlayer(uuid.toLowerCase());
  }

  byBanId(banId: number): Promise<CommunityBanRecord | null> {
    return this.repository.getByBanId(banId);
  }

  /** True when the player has a record here (such a player is a known player of the public sites). */
  hasAny(uuid: string): Promise<boolean> {
    return this.repository.hasAnyForPlayer(uuid.toLowerCase());
  }
}
