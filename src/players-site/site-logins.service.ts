import { Injectable } from '@nestjs/common';
import { MCID_PATTERN } from '../common/identifiers';
import { AppConfig } from '../config/app-config';
import { PlayersRepository } from '../players/players.repository';
import { LoginsRepository } from '../users/logins.repository';
import { wallClock } from './site-times';
import { SitePlayersService } from '../site-players/site-players.service';

/** How many names the search box offers, logins the recent list shows, and logins of one player. */
export const PREFIX_MATCHES = 20;
export const RECENT_PLAYERS = 50;
export const RECENT_LOGINS_OF_PLAYER = 100;

export interface RecentPlayerLogin {
  id: number;
  mcid: string;
  uuid: string;
  date: string;
}

export interface PlayerLogin {
  id: number;
  mcid: string;
  date: string;
}

/** The players site's search box and login lists (docs/players-site.md, "Search and logins"). */
@Injectable()
export class SiteLoginsService {
  constructor(
    private readonly players: PlayersRepository,
    private readonly logins: LoginsRepository,
    private readonly sitePlayers: SitePlayersService,
    private readonly config: AppConfig,
  ) {}

  /** Current game ids starting with `prefix`; nothing for an empty prefix or one no game id can start with. */
  async namesStartingWith(prefix: string | undefined): Promise<string[]> {
    if (prefix === undefined || !MCID_PATTERN.test(prefix)) {
      return [];
    }
    return this.players.getMcidsByPrefix(prefix, PREFIX_MATCHES);
  }

  /** The latest login of each of the players seen last, newest first; the record's id is the list's id (unique). */
  async recentPlayers(): Promise<RecentPlayerLogin[]> {
    const records = await this.logins.getLatestOfRecentPlayers(RECENT_PLAYERS);
    return records.map((record) => ({ id: record.id, mcid: record.mcid, uuid: record.uuid, date: wallClock(record.loggedInAt, this.config.COMMUNITY_TIME_ZONE) }));
  }

  /** A player's latest logins, newest first, each with the name used then. */
  async recentOf(id: string): Promise<PlayerLogin[]> {
    const player = await this.sitePlayers.resolve(id);
    const records = await this.logins.getRecentOf(player.uuid, RECENT_LOGINS_OF_PLAYER);
    return records.map((record) => ({ id: record.id, mcid: record.mcid, date: wallClock(record.loggedInAt, this.config.COMMUNITY_TIME_ZONE) }));
  }
}
