import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PlayTimeReader } from '../play-time/play-time.reader';
import { PlayerGroupsReader } from '../player-groups/player-groups.reader';
import { VotesReader } from '../votes/votes.reader';
import { durationText, wallClock } from './site-times';
import { SitePlayersService } from '../site-players/site-players.service';

/** The key of the sum of every era (the original's name). */
export const ERA_TOTAL_KEY = 'jaototal';

export interface SiteInfo {
  group: string;
  groupWhen: string | null;
  groupExpireAt: string | null;
  totalTime: Record<string, string | null>;
  afkTime: number;
  afkTimeFormatted: string;
  mcjpVoteCount: number;
  mcjpVoteRank: number;
  monoVoteCount: number;
  monoVoteRank: number;
}

/**
 * What a player's page shows of their play (docs/players-site.md, "A player's page"): the
 * permission group, play time per era, away time and votes; and the daily heatmap. Every part is
 * a value its feature keeps up to date as data arrives, read by key.
 */
@Injectable()
export class SitePlayService {
  constructor(
    private readonly sitePlayers: SitePlayersService,
    private readonly playTime: PlayTimeReader,
    private readonly groups: PlayerGroupsReader,
    private readonly votes: VotesReader,
    private readonly config: AppConfig,
  ) {}

  async info(id: string): Promise<SiteInfo> {
    const [, [group, eras, away, votes]] = await this.sitePlayers.resolveWith(id, (uuid, player) =>
      Promise.all([this.groups.current(uuid, player), this.playTime.eraTotals(uuid), this.playTime.awaySeconds(uuid), this.votes.summary(uuid)]),
    );
    return {
      group: group.group,
      groupWhen: this.time(group.reportedAt),
      groupExpireAt: this.time(group.expiresAt),
      totalTime: this.totalTime(eras),
      afkTime: away,
      afkTimeFormatted: durationText(away),
      mcjpVoteCount: votes.first.count,
      mcjpVoteRank: votes.first.rank,
      monoVoteCount: votes.second.count,
      monoVoteRank: votes.second.rank,
    };
  }

  /** Seconds played on each day with play in the last 366 days, in the community's zone. */
  async dailyOnline(id: string): Promise<Array<{ date: string; count: number }>> {
    const [, days] = await this.sitePlayers.resolveWith(id, (uuid) => this.playTime.dailyOnline(uuid, new Date()));
    return days;
  }

  /** Every era of the setting as a duration (null without data), then the sum of all (never null). */
  private totalTime(eras: Map<string, number>): Record<string, string | null> {
    const totals: Record<string, string | null> = {};
    let sum = 0;
    for (const era of this.config.eras) {
      const seconds = eras.get(era.key);
      totals[era.key] = seconds === undefined ? null : durationText(seconds);
      sum += seconds ?? 0;
    }
    totals[ERA_TOTAL_KEY] = durationText(sum);
    return totals;
  }

  private time(date: Date | null): string | null {
    return date === null ? null : wallClock(date, this.config.COMMUNITY_TIME_ZONE);
  }
}
