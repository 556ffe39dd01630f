import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics } from 'prom-client';
import { Telemetry } from '../common/telemetry/telemetry';

/**
 * `GET /metrics` (docs/operations.md, Metrics): renders what the application counted through
 * Telemetry, plus the process's own metrics when the HTTP server asks for them. Counting itself
 * is Telemetry's: features never come here.
 */
@Injectable()
export class MetricsService {
  private processMetrics = false;

  constructor(private readonly telemetry: Telemetry) {}

  /** The process's own metrics (CPU, memory, event loop, GC); the HTTP server turns them on, the CLI does not. */
  collectProcessMetrics(): void {
    if (!this.processMetrics) {
      this.processMetrics = true;
      collectDefaultMetrics({ register: this.telemetry.registry });
    }
  }

  render(): Promise<string> {
    return this.telemetry.exposition();
  }
}
