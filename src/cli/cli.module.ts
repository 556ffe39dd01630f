import { DynamicModule, Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { PlayerNamesBinding } from '../app.module';
import { BanlistSyncModule } from '../banlist-sync/banlist-sync.module';
import { CaptchaModule } from '../captcha/captcha.module';
import { ClubModule } from '../club/club.module';
import { TelemetryModule } from '../common/telemetry/telemetry.module';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { EventsModule } from '../events/events.module';
import { OriginalImportModule } from '../original-import/original-import.module';
import { PlayersModule } from '../players/players.module';
import { UsersModule } from '../users/users.module';

/**
 * The services the command line needs, without HTTP and without the scheduler (a CLI process
 * must never start the ban-list cron).
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), TelemetryModule, DatabaseModule, EventsModule, PlayersModule, PlayerNamesBinding, ApiKeysModule, CaptchaModule, ClubModule, UsersModule, BanlistSyncModule, OriginalImportModule],
    };
  }
}
