import { Injectable } from '@nestjs/common';
import { type CurrentGroup, currentGroup } from './group-choice';
import { PlayerGroupsRepository } from './player-groups.repository';

/** What a player's latest login said of their group: the `players` row the caller reads anyway. */
export interface LoginGroupSide {
  permission: string | null;
  lastLogin: Date | null;
}

/** What the sites and the console read of a player's permission group: one primary-key read. */
@Injectable()
export class PlayerGroupsReader {
  constructor(private readonly groups: PlayerGroupsRepository) {}

  /**
   * `uuid` any case, hyphenated; `login` the player's row as the caller read it (null: no such
   * player), given as a promise when that read is still under way, so that both go out together.
   * `default` with no times for a player nothing is known of.
   */
  async current(uuid: string, login: LoginGroupSide | null | Promise<LoginGroupSide | null>): Promise<CurrentGroup> {
    const [report, side] = await Promise.all([this.groups.getReport(uuid.toLowerCase()), login]);
    return currentGroup(report, side ?? { permission: null, lastLogin: null });
  }
}
