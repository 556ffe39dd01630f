import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuthModule } from './auth/auth.module';
import { BanlistSyncModule } from './banlist-sync/banlist-sync.module';
import { BansSiteModule } from './bans-site/bans-site.module';
import { CaptchaModule } from './captcha/captcha.module';
import { ChatAccountsModule } from './chat-accounts/chat-accounts.module';
import { CitiesModule } from './cities/cities.module';
import { ClubModule } from './club/club.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { RouteTable } from './common/http/route-table';
import { TelemetryModule } from './common/telemetry/telemetry.module';
import { createValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { EvidenceModule } from './evidence/evidence.module';
import { PlayerNameLookup } from './events/player-name-lookup';
import { HealthModule } from './health/health.module';
import { MapsModule } from './maps/maps.module';
import { MetricsModule } from './metrics/metrics.module';
import { MiniGamesModule } from './mini-games/mini-games.module';
import { ModerationModule } from './moderation/moderation.module';
import { PlayTimeModule } from './play-time/play-time.module';
import { PlayerGroupsModule } from './player-groups/player-groups.module';
import { PlayersModule } from './players/players.module';
import { PlayersSiteModule } from './players-site/players-site.module';
import { PlayersRepository } from './players/players.repository';
import { PunishmentsModule } from './punishments/punishments.module';
import { SecurityModule } from './security/security.module';
import { UserKeysModule } from './user-keys/user-keys.module';
import { UsersModule } from './users/users.module';
import { VotesModule } from './votes/votes.module';

/**
 * Binds the events feature's PlayerNameLookup port to the players repository, so that neither
 * feature imports the other. Global because every module that records events imports
 * EventsModule; the server and the CLI both import it once, at the root.
 */
@Global()
@Module({ imports: [PlayersModule], providers: [{ provide: PlayerNameLookup, useExisting: PlayersRepository }], exports: [PlayerNameLookup] })
export class PlayerNamesBinding {}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, routes: RouteTable): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TelemetryModule,
        MetricsModule,
        DatabaseModule,
        EventsModule,
        SecurityModule,
        ScheduleModule.forRoot(),
        PlayersModule,
        PlayerNamesBinding,
        ApiKeysModule,
        CaptchaModule,
        AuthModule,
        UserKeysModule,
        ClubModule,
        CitiesModule,
        MapsModule,
        UsersModule,
        PlayTimeModule,
        BanlistSyncModule,
        PlayersSiteModule,
        HealthModule,
        ConsoleModule,
        PunishmentsModule,
        ModerationModule,
        MiniGamesModule,
        VotesModule,
        PlayerGroupsModule,
        ChatAccountsModule,
        EvidenceModule,
        BansSiteModule,
      ],
      providers: [
        { provide: RouteTable, useValue: routes },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        AllExceptionsFilter,
        { provide: APP_FILTER, useExisting: AllExceptionsFilter },
      ],
    };
  }
}
