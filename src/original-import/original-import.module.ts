import { Module } from '@nestjs/common';
import { CitiesRepository } from '../cities/cities.repository';
import { CityRequestsRepository } from '../cities/city-requests.repository';
import { CityRulesService } from '../cities/city-rules.service';
import { ClubAccountsRepository } from '../club/club-accounts.repository';
import { PasswordsService } from '../club/passwords.service';
import { ChatAccountsModule } from '../chat-accounts/chat-accounts.module';
import { MiniGamesModule } from '../mini-games/mini-games.module';
import { PlayTimeModule } from '../play-time/play-time.module';
import { PlayerGroupsModule } from '../player-groups/player-groups.module';
import { PlayersModule } from '../players/players.module';
import { PunishmentsModule } from '../punishments/punishments.module';
import { UsersModule } from '../users/users.module';
import { VotesModule } from '../votes/votes.module';
import { CommunityBansModule } from '../community-bans/community-bans.module';
import { OriginalCitiesImporter } from './original-cities.importer';
import { OriginalImportRepository } from './original-import.repository';
import { OriginalImportService } from './original-import.service';
import { OriginalPlayersImporter } from './original-players.importer';
import { OriginalRequestsImporter } from './original-requests.importer';
import { OriginalSiteImporter } from './original-site.importer';

/** `import:original` (command line only): the original service's database into this one. */
@Module({
  imports: [PlayersModule, UsersModule, PlayTimeModule, VotesModule, PlayerGroupsModule, ChatAccountsModule, PunishmentsModule, MiniGamesModule, CommunityBansModule],
  providers: [CitiesRepository, CityRequestsRepository, CityRulesService, ClubAccountsRepository, PasswordsService, OriginalImportRepository, OriginalCitiesImporter, OriginalRequestsImporter, OriginalPlayersImporter, OriginalSiteImporter, OriginalImportService],
  exports: [OriginalImportService],
})
export class OriginalImportModule {}
