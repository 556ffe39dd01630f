import { Module } from '@nestjs/common';
import { CitiesModule } from '../cities/cities.module';
import { MapsController } from './maps.controller';
import { MapsService } from './maps.service';

@Module({
  imports: [CitiesModule],
  controllers: [MapsController],
  providers: [MapsService],
})
export class MapsModule {}
