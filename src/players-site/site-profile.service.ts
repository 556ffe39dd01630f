import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PunishmentsReader } from '../punishments/punishments.reader';
import { wallClock } from './site-times';
import { SitePlayersService } from './site-players.service';

export interface SitePlayerName {
  mcid: string;
  uuid: string;
}

export interface SitePunishment {
  type: 'Jail' | 'ChatJail' | 'EBan' | 'VBan';
  id: number;
  mcid: string;
  reason: string;
  testment: string | null;
  status: boolean;
  bannedBy: string;
  date: string;
}

export interface SitePunishments {
  count: { jail: number; chatjail: number; eban: number; vban: number };
  items: SitePunishment[];
}

/** A player's page on the players site, part by part (docs/players-site.md, "A player's page"). */
@Injectable()
export class SiteProfileService {
  constructor(
    private readonly sitePlayers: SitePlayersService,
    private readonly punishments: PunishmentsReader,
    private readonly config: AppConfig,
  ) {}

  async name(id: string): Promise<SitePlayerName> {
    const player = await this.sitePlayers.resolve(id);
    return { mcid: player.mcid ?? '', uuid: player.uuid };
  }

  /** Every punishment of the player, newest first, with the count of each kind. */
  async punishmentsOf(id: string): Promise<SitePunishments> {
    const player = await this.sitePlayers.resolve(id);
    const { counts, items } = await this.punishments.forPlayer(player.uuid);
    return {
      count: counts,
      items: items.map((item) => ({
        type: item.kind,
        id: item.id,
        mcid: item.mcid,
        reason: item.reason,
        testment: item.testment,
        status: item.active,
        bannedBy: item.issuedBy,
        date: this.time(item.issuedAt),
      })),
    };
  }

  private time(date: Date): string {
    return wallClock(date, this.config.COMMUNITY_TIME_ZONE);
  }
}
