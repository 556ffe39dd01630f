import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlayersModule } from '../players/players.module';
import { AwayRecord } from './away-record.entity';
import { AwayTotal } from './away-total.entity';
import { AwayRepository } from './away.repository';
import { AwayService } from './away.service';
import { GameServerPlayTimeController } from './game-server-play-time.controller';
import { PlayDay } from './play-day.entity';
import { PlayEraTotal } from './play-era-total.entity';
import { PlayImportedTotal } from './play-imported-total.entity';
import { PlaySession } from './play-session.entity';
import { PlaySessionsRepository } from './play-sessions.repository';
import { PlaySessionsService } from './play-sessions.service';
import { PlayTimeImport } from './play-time.import';
import { PlayTimeReader } from './play-time.reader';
import { PlayTotalsRepository } from './play-totals.repository';

/** Sessions, daily play time, era totals and away time: what the game server reports, what the players site reads, what the import brings. */
@Module({
  imports: [TypeOrmModule.forFeature([PlaySession, PlayDay, PlayEraTotal, PlayImportedTotal, AwayRecord, AwayTotal]), PlayersModule],
  controllers: [GameServerPlayTimeController],
  providers: [PlaySessionsRepository, PlayTotalsRepository, AwayRepository, PlaySessionsService, AwayService, PlayTimeReader, PlayTimeImport],
  exports: [PlayTimeReader, PlayTimeImport],
})
export class PlayTimeModule {}
