import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlayersModule } from '../players/players.module';
import { GameServerVotesController } from './game-server-votes.controller';
import { LoginTextReport } from './login-text-report.entity';
import { LoginText } from './login-text.entity';
import { LoginTextsRepository } from './login-texts.repository';
import { VoteCountPlayers } from './vote-count-players.entity';
import { VoteTotal } from './vote-total.entity';
import { Vote } from './vote.entity';
import { VotesImport } from './votes.import';
import { VotesReader } from './votes.reader';
import { VotesRepository } from './votes.repository';
import { VotesService } from './votes.service';

/** Votes per vote site, the players' login texts, and the ranks the players site shows. */
@Module({
  imports: [TypeOrmModule.forFeature([Vote, VoteTotal, VoteCountPlayers, LoginTextReport, LoginText]), PlayersModule],
  controllers: [GameServerVotesController],
  providers: [VotesRepository, LoginTextsRepository, VotesService, VotesReader, VotesImport],
  exports: [VotesReader, VotesImport],
})
export class VotesModule {}
