import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { PlayersModule } from '../players/players.module';
import { GameServerPunishmentsController } from './game-server-punishments.controller';
import { Punishment } from './punishment.entity';
import { PunishmentsImport } from './punishments.import';
import { PunishmentsReader } from './punishments.reader';
import { PunishmentsRepository } from './punishments.repository';
import { PunishmentsService } from './punishments.service';

/** Punishments of four kinds, issued and lifted: the game server's routes, the players site's and the moderation API's reader, operators' lifts (for src/moderation/), the import. */
@Module({
  imports: [TypeOrmModule.forFeature([Punishment]), PlayersModule, EventsModule],
  controllers: [GameServerPunishmentsController],
  providers: [PunishmentsRepository, PunishmentsService, PunishmentsReader, PunishmentsImport],
  exports: [PunishmentsReader, PunishmentsImport, PunishmentsService],
})
export class PunishmentsModule {}
