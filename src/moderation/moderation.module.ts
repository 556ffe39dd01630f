import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BanlistSyncModule } from '../banlist-sync/banlist-sync.module';
import { ChatAccountsModule } from '../chat-accounts/chat-accounts.module';
import { CitiesModule } from '../cities/cities.module';
import { EvidenceModule } from '../evidence/evidence.module';
import { CommunityBansModule } from '../community-bans/community-bans.module';
import { PlayTimeModule } from '../play-time/play-time.module';
import { PlayerGroupsModule } from '../player-groups/player-groups.module';
import { PlayersModule } from '../players/players.module';
import { PunishmentsModule } from '../punishments/punishments.module';
import { UsersModule } from '../users/users.module';
import { ModerationChangesService } from './moderation-changes.service';
import { ModerationPlayersController } from './moderation-players.controller';
import { ModerationPlayersService } from './moderation-players.service';
import { ModerationRecordsController } from './moderation-records.controller';
import { ModerationRecordsService } from './moderation-records.service';
import { RecordHistoryEntry } from './record-history.entity';
import { RecordHistoryRepository } from './record-history.repository';
import { RecordNote } from './record-note.entity';
import { RecordNotesRepository } from './record-notes.repository';

/**
 * The operator API for moderation (docs/api.md, Moderation): players and records of every kind,
 * read from the features that keep them; lifts through the punishments feature; notes and history,
 * its own tables; evidence pictures through the evidence feature.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([RecordNote, RecordHistoryEntry]),
    PlayersModule,
    UsersModule,
    PlayTimeModule,
    PlayerGroupsModule,
    ChatAccountsModule,
    BanlistSyncModule,
    CitiesModule,
    PunishmentsModule,
    CommunityBansModule,
    EvidenceModule,
  ],
  controllers: [ModerationPlayersController, ModerationRecordsController],
  providers: [RecordNotesRepository, RecordHistoryRepository, ModerationRecordsService, ModerationPlayersService, ModerationChangesService],
})
export class ModerationModule {}
