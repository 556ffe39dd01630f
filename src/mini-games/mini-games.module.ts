import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlayersModule } from '../players/players.module';
import { GameServerMiniGamesController } from './game-server-mini-games.controller';
import { MiniGameResult } from './minigame-result.entity';
import { MiniGamesImport } from './mini-games.import';
import { MiniGamesReader } from './mini-games.reader';
import { MiniGamesRepository } from './mini-games.repository';
import { MiniGamesService } from './mini-games.service';

/** Results of the timing mini-game (periodmatch): the game server's route, the players site's reader, the import. */
@Module({
  imports: [TypeOrmModule.forFeature([MiniGameResult]), PlayersModule],
  controllers: [GameServerMiniGamesController],
  providers: [MiniGamesRepository, MiniGamesService, MiniGamesReader, MiniGamesImport],
  exports: [MiniGamesReader, MiniGamesImport],
})
export class MiniGamesModule {}
