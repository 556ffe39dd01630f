import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommunityBanlistBan } from './community-banlist-ban.entity';
import { CommunityBanlistBansRepository } from './community-banlist-bans.repository';
import { CommunityBansReader } from './community-bans.reader';
import { CommunityBansSync } from './community-bans-sync';

/**
 * The community's own ban-list records (docs/bans-site.md): filled by `import:original` and then
 * by the ban-list sync, read by the bans site and the moderation API.
 */
@Module({
  imports: [TypeOrmModule.forFeature([CommunityBanlistBan])],
  providers: [CommunityBanlistBansRepository, CommunityBansReader, CommunityBansSync],
  exports: [CommunityBanlistBansRepository, CommunityBansReader, CommunityBansSync],
})
export class CommunityBansModule {}
