import { Module } from '@nestjs/common';
import { Telemetry } from './telemetry';

/**
 * Counting (docs/operations.md, Metrics). One instance for the process: every module that counts
 * imports this one, the database module included, so what counts is visible in its imports.
 */
@Module({
  providers: [Telemetry],
  exports: [Telemetry],
})
export class TelemetryModule {}
