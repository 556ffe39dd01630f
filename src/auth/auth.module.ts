import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { ClubTokensModule } from '../club/club-tokens.module';
import { ConsoleSessionsModule } from '../console-sessions/console-sessions.module';
import { AuthGuard } from './auth.guard';

@Module({
  imports: [ApiKeysModule, ClubTokensModule, ConsoleSessionsModule],
  providers: [{ provide: APP_GUARD, useClass: AuthGuard }],
})
export class AuthModule {}
