import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { ClubTokensModule } from '../club/club-tokens.module';
import { ConsoleSession } from './console-session.entity';
import { consoleSessionsRetentionJobProvider } from './console-sessions-retention';
import { ConsoleSessionsController } from './console-sessions.controller';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleSessionsService } from './console-sessions.service';

/** The console's sign-in sessions; the auth guard accepts their cookie on the console's routes. */
@Module({
  imports: [TypeOrmModule.forFeature([ConsoleSession]), ApiKeysModule, ClubTokensModule],
  controllers: [ConsoleSessionsController],
  providers: [ConsoleSessionsRepository, ConsoleSessionsService, consoleSessionsRetentionJobProvider],
  exports: [ConsoleSessionsService],
})
export class ConsoleSessionsModule {}
