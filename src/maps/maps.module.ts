import { Module } from '@nestjs/common';
import { CitiesModule } from '../cities/cities.module';
import { MapsController } from './maps.controller';
import { MapsService } from './maps.service';
import { WebMapController } from './web-map/web-map.controller';
import { WebMapService } from './web-map/web-map.service';

@Module({
  imports: [CitiesModule],
  controllers: [MapsController, WebMapController],
  providers: [MapsService, WebMapService],
})
export class MapsModule {}
