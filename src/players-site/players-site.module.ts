import { Module } from '@nestjs/common';
import { ChatAccountsModule } from '../chat-accounts/chat-accounts.module';
import { BanlistSyncModule } from '../banlist-sync/banlist-sync.module';
import { MiniGamesModule } from '../mini-games/mini-games.module';
import { PlayTimeModule } from '../play-time/play-time.module';
import { PlayerGroupsModule } from '../player-groups/player-groups.module';
import { PlayersModule } from '../players/players.module';
import { VotesModule } from '../votes/votes.module';
import { PunishmentsModule } from '../punishments/punishments.module';
import { UsersModule } from '../users/users.module';
import { SiteBrandedController } from './site-branded.controller';
import { SiteBrandedService } from './site-branded.service';
import { SiteLoginsService } from './site-logins.service';
import { SitePlayersModule } from '../site-players/site-players.module';
import { SitePlayService } from './site-play.service';
import { SiteProfileService } from './site-profile.service';
import { SiteUsersController } from './site-users.controller';

/**
 * The routes the community's players site calls (docs/players-site.md). It owns no data: each
 * part of a player's page is read from the feature that keeps it.
 */
@Module({
  imports: [PlayersModule, UsersModule, BanlistSyncModule, PunishmentsModule, MiniGamesModule, PlayTimeModule, PlayerGroupsModule, VotesModule, ChatAccountsModule, SitePlayersModule],
  controllers: [SiteUsersController, SiteBrandedController],
  providers: [SiteLoginsService, SiteProfileService, SiteBrandedService, SitePlayService],
})
export class PlayersSiteModule {}
