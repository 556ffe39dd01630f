import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { BanlistLookupService } from '../banlist-sync/banlist-lookup.service';
import { AppConfig } from '../config/app-config';
import { MiniGamesReader } from '../mini-games/mini-games.reader';
import { AchievementsRepository } from '../users/achievements.repository';
import { wallClock } from './site-times';
import { SitePlayersService } from '../site-players/site-players.service';
import { POSITIVE_INT_PATTERN } from '../common/identifiers';
import { msg } from '../common/errors/messages';
import { INT_COLUMN_MAX } from '../common/validation/column-range';

export interface SiteAchievement {
  id: number;
  title: string;
  description: string;
  date: string;
}

export interface SiteBanlistRecord {
  reputation: number;
  global: number;
  local: number;
  global_ids: number[];
  local_ids: number[];
  updated_at: string;
}

export interface SitePeriodMatchResult {
  id: number;
  mcid: string;
  success: number;
  failure: number;
  match_time: number;
  real_match_time: number;
  calc_match_time: number;
  status: boolean;
  rank: number;
  start_time: string;
  end_time: string;
  created_at: string;
}

export interface SiteBanlistBan {
  server: string | null;
  banned_by: string | null;
  reason: string;
  date: string;
}

/**
 * The original's branded names of routes this service has under neutral ones (docs/players-site.md,
 * "Achievements and the ban list"): the same data, in the shapes the players site reads.
 */
@Injectable()
export class SiteBrandedService {
  constructor(
    private readonly sitePlayers: SitePlayersService,
    private readonly achievements: AchievementsRepository,
    private readonly banlist: BanlistLookupService,
    private readonly miniGames: MiniGamesReader,
    private readonly config: AppConfig,
  ) {}

  /** The player's unlocked achievements (hidden ones included once unlocked), with the counts the site shows. */
  async achievementsOf(id: string): Promise<{ data: SiteAchievement[]; getted: number; all: number }> {
    const player = await this.sitePlayers.resolve(id);
    const [unlocked, all] = await Promise.all([this.achievements.getUnlocked(player.uuid), this.achievements.count()]);
    const data = unlocked.map((item) => ({ id: item.id, title: item.title, description: item.description, date: this.time(new Date(item.unlockedAt)) }));
    return { data, getted: data.length, all };
  }

  /** The ban-list mirror's record of the player; 404 when the mirror has none. */
  async banlistRecordOf(id: string): Promise<SiteBanlistRecord> {
    const player = await this.sitePlayers.resolve(id);
    const record = await this.banlist.user(player.uuid);
    return {
      reputation: record.reputation,
      global: record.global,
      local: record.local,
      global_ids: record.globalIds,
      local_ids: record.localIds,
      updated_at: this.time(new Date(record.syncedAt)),
    };
  }

  async banlistBan(id: string): Promise<SiteBanlistBan> {
    if (!POSITIVE_INT_PATTERN.test(id)) {
      throw ApiError.invalidField('id', msg('validation.positiveInteger', { field: 'id' }));
    }
    // Up to 16 digits pass the pattern; past an integer column's range no ban can have the id (and
    // Number() would round it to another one).
    const banId = Number(id);
    if (banId > INT_COLUMN_MAX) {
      throw ApiError.notFound(msg('banlist.banNotFound', { banId: id }));
    }
    const ban = await this.banlist.ban(banId);
    return { server: ban.server, banned_by: ban.bannedBy, reason: ban.reason, date: this.time(new Date(ban.bannedAt)) };
  }

  /** The player's 50 latest results of the timing mini-game, each with its place in its category. */
  async periodMatchOf(id: string): Promise<SitePeriodMatchResult[]> {
    const player = await this.sitePlayers.resolve(id);
    const results = await this.miniGames.recent(player.uuid);
    return results.map((result) => ({
      id: result.id,
      mcid: result.mcid,
      success: result.success,
      failure: result.failure,
      match_time: result.matchTime,
      real_match_time: result.realMatchTime,
      calc_match_time: result.calcMatchTime,
      status: result.status,
      rank: result.rank,
      start_time: this.time(result.startTime),
      end_time: this.time(result.endTime),
      created_at: this.time(result.endTime),
    }));
  }

  private time(date: Date): string {
    return wallClock(date, this.config.COMMUNITY_TIME_ZONE);
  }
}
