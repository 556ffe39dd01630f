import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlayersModule } from '../players/players.module';
import { AchievementUnlock } from './achievement-unlock.entity';
import { Achievement } from './achievement.entity';
import { AchievementsRepository } from './achievements.repository';
import { AchievementsService } from './achievements.service';
import { ChatLinksService } from './chat-links.service';
import { GameServerAchievementsController } from './game-server-achievements.controller';
import { GameServerPlayersController } from './game-server-players.controller';
import { LoginImportService } from './login-import.service';
import { LoginRecord } from './login-record.entity';
import { LoginsRepository } from './logins.repository';
import { LoginsService } from './logins.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

/** Player lookups, achievements, and what the game server feeds in (logins, chat links, achievements). */
@Module({
  imports: [TypeOrmModule.forFeature([LoginRecord, Achievement, AchievementUnlock]), PlayersModule],
  controllers: [UsersController, GameServerPlayersController, GameServerAchievementsController],
  providers: [AchievementsRepository, LoginsRepository, UsersService, LoginsService, LoginImportService, ChatLinksService, AchievementsService],
  exports: [UsersService, LoginsService, LoginImportService, AchievementsRepository, LoginsRepository],
})
export class UsersModule {}
