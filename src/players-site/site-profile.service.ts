import { Injectable } from '@nestjs/common';
import { SitePlayersService } from './site-players.service';

export interface SitePlayerName {
  mcid: string;
  uuid: string;
}

/** A player's page on the players site, part by part (docs/players-site.md, "A player's page"). */
@Injectable()
export class SiteProfileService {
  constructor(private readonly sitePlayers: SitePlayersService) {}

  async name(id: string): Promise<SitePlayerName> {
    const player = await this.sitePlayers.resolve(id);
    return { mcid: player.mcid ?? '', uuid: player.uuid };
  }
}
