import { Module } from '@nestjs/common';
import { CommunityBansModule } from '../community-bans/community-bans.module';
import { EvidenceModule } from '../evidence/evidence.module';
import { PunishmentsModule } from '../punishments/punishments.module';
import { SitePlayersModule } from '../site-players/site-players.module';
import { BansController } from './bans.controller';
import { BansSiteService } from './bans-site.service';

/**
 * The routes the community's bans site calls (docs/bans-site.md). It owns no data: the community's
 * ban-list records, punishments and evidence pictures are read from their features.
 */
@Module({
  imports: [CommunityBansModule, PunishmentsModule, EvidenceModule, SitePlayersModule],
  controllers: [BansController],
  providers: [BansSiteService],
})
export class BansSiteModule {}
