import { Module } from '@nestjs/common';
import { TelemetryModule } from '../common/telemetry/telemetry.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics` (docs/operations.md, Metrics): the scrape route and its access rule. Features
 * count through Telemetry (src/common/telemetry/), not through this module; the app factory
 * turns the process metrics on (HTTP only).
 */
@Module({
  imports: [TelemetryModule],
  controllers: [MetricsController],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
