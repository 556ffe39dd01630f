import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TelemetryModule } from '../common/telemetry/telemetry.module';
import { CommunityBansModule } from '../community-bans/community-bans.module';
import { EventsModule } from '../events/events.module';
import { BanlistBan } from './banlist-ban.entity';
import { BanlistClient } from './banlist-client';
import { BanlistLookupService } from './banlist-lookup.service';
import { BanlistPlayer } from './banlist-player.entity';
import { BanlistStore } from './banlist-store.service';
import { BanlistSyncRun } from './banlist-sync-run.entity';
import { BanlistSyncStatusService } from './banlist-sync-status.service';
import { banlistSyncJobProvider } from './banlist-sync.job';
import { BanlistSyncService } from './banlist-sync.service';
import { BanlistController } from './banlist.controller';
import { BanlistRepository } from './banlist.repository';
import { SyncLeasesRepository } from './sync-leases.repository';
import { SyncRunsRepository } from './sync-runs.repository';
import { SyncLease } from './sync-lease.entity';
import { SyncLeaseService } from './sync-lease.service';

/**
 * The ban-list mirror (docs/game-server.md, The ban-list mirror). The HTTP server and the CLI both import it; the
 * scheduled job exists only where ScheduleModule is loaded and BANLIST_SOURCE_URL is set.
 */
@Module({
  imports: [TypeOrmModule.forFeature([BanlistPlayer, BanlistBan, BanlistSyncRun, SyncLease]), EventsModule, TelemetryModule, CommunityBansModule],
  controllers: [BanlistController],
  providers: [BanlistRepository, SyncRunsRepository, SyncLeasesRepository, BanlistClient, BanlistStore, SyncLeaseService, BanlistSyncService, BanlistSyncStatusService, BanlistLookupService, banlistSyncJobProvider],
  exports: [BanlistSyncService, BanlistSyncStatusService, BanlistLookupService],
})
export class BanlistSyncModule {}
