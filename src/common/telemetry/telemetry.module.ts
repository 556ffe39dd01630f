import { Global, Module } from '@nestjs/common';
import { Telemetry } from './telemetry';

/**
 * Counting, usable from anywhere: global like the configuration, so the database module and the
 * exception filter need no import of a feature to count (docs/operations.md, Metrics).
 */
@Global()
@Module({
  providers: [Telemetry],
  exports: [Telemetry],
})
export class TelemetryModule {}
