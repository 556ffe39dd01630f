import { Module } from '@nestjs/common';
import { DatabaseHealth } from '../database/database-health';
import { HealthController } from './health.controller';

@Module({ controllers: [HealthController], providers: [DatabaseHealth] })
export class HealthModule {}
