import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { ClubTokensModule } from '../club/club-tokens.module';
import { UserKeysModule } from '../user-keys/user-keys.module';
import { CitiesListCache } from './cities-list.cache';
import { CitiesQueryService } from './cities-query.service';
import { CitiesController } from './cities.controller';
import { CityAuditEntry } from './city-audit.entity';
import { CityAuditService } from './city-audit.service';
import { CityCreateService } from './city-create.service';
import { CityDecisionsService } from './city-decisions.service';
import { CityEditService } from './city-edit.service';
import { City } from './city.entity';
import { CityRequest } from './city-request.entity';
import { CityRulesService } from './city-rules.service';

@Module({
  imports: [TypeOrmModule.forFeature([City, CityRequest, CityAuditEntry]), ApiKeysModule, ClubTokensModule, UserKeysModule],
  controllers: [CitiesController],
  providers: [CitiesListCache, CitiesQueryService, CityAuditService, CityCreateService, CityDecisionsService, CityEditService, CityRulesService],
  exports: [CitiesQueryService],
})
export class CitiesModule {}
