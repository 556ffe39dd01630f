import { Injectable } from '@nestjs/common';
import { type CurrentGroup, currentGroup } from './group-choice';
import { PlayerGroupsRepository } from './player-groups.repository';

/** What the players site reads of a player's permission group: one primary-key read. */
@Injectable()
export class PlayerGroupsReader {
  constructor(private readonly groups: PlayerGroupsRepository) {}

  /** `uuid` lower case, hyphenated. `default` with no times for a player nothing is known of. */
  async current(uuid: string): Promise<CurrentGroup> {
    const sources = await this.groups.getSources(uuid.toLowerCase());
    if (!sources) {
      return { group: 'default', reportedAt: null, expiresAt: null };
    }
    return currentGroup(sources.report, sources);
  }
}
