import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlayersModule } from '../players/players.module';
import { GameServerGroupsController } from './game-server-groups.controller';
import { PlayerGroupReport } from './player-group-report.entity';
import { PlayerGroup } from './player-group.entity';
import { PlayerGroupsImport } from './player-groups.import';
import { PlayerGroupsReader } from './player-groups.reader';
import { PlayerGroupsRepository } from './player-groups.repository';
import { PlayerGroupsService } from './player-groups.service';

/** Permission groups with their end: what the game server reports, and the group the players site shows. */
@Module({
  imports: [TypeOrmModule.forFeature([PlayerGroupReport, PlayerGroup]), PlayersModule],
  controllers: [GameServerGroupsController],
  providers: [PlayerGroupsRepository, PlayerGroupsService, PlayerGroupsReader, PlayerGroupsImport],
  exports: [PlayerGroupsReader, PlayerGroupsImport],
})
export class PlayerGroupsModule {}
