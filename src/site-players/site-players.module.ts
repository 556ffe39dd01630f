import { Module } from '@nestjs/common';
import { CommunityBansModule } from '../community-bans/community-bans.module';
import { PlayersModule } from '../players/players.module';
import { PunishmentsModule } from '../punishments/punishments.module';
import { SitePlayersService } from './site-players.service';

/** How the community's public sites (players and bans) name a player: one resolution for both. */
@Module({
  imports: [PlayersModule, PunishmentsModule, CommunityBansModule],
  providers: [SitePlayersService],
  exports: [SitePlayersService],
})
export class SitePlayersModule {}
