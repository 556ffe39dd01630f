import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { CaptchaModule } from '../captcha/captcha.module';
import { ClubTokensModule } from '../club/club-tokens.module';
import { EventsModule } from '../events/events.module';
import { UserKeysModule } from '../user-keys/user-keys.module';
import { CitiesListCache } from './cities-list.cache';
import { CitiesQueryService } from './cities-query.service';
import { CitiesController } from './cities.controller';
import { CitiesRepository } from './cities.repository';
import { CityAuditRepository } from './city-audit.repository';
import { CityAuditService } from './city-audit.service';
import { CityCreateService } from './city-create.service';
import { CityDecisionsService } from './city-decisions.service';
import { CityEditService } from './city-edit.service';
import { CityRequestsRepository } from './city-requests.repository';
import { CityEvents } from './city-events';
import { CityRulesService } from './city-rules.service';
import { ClubRequestsController } from './club-requests.controller';
import { RequesterResolver } from './requester-resolver';

@Module({
  imports: [ApiKeysModule, CaptchaModule, ClubTokensModule, EventsModule, UserKeysModule],
  controllers: [CitiesController, ClubRequestsController],
  providers: [
    CitiesRepository,
    CityRequestsRepository,
    CityAuditRepository,
    CitiesListCache,
    CitiesQueryService,
    CityAuditService,
    CityCreateService,
    CityDecisionsService,
    CityEditService,
    CityEvents,
    CityRulesService,
    RequesterResolver,
  ],
  exports: [CitiesQueryService],
})
export class CitiesModule {}
