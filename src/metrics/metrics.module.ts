import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * Metrics (docs/operations.md, Metrics). Global so that any feature can inject MetricsService and move its
 * counter; the request metrics and process metrics are wired by the app factory (HTTP only).
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
