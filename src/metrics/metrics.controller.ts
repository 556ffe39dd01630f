import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/openapi/api-docs.decorators';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsService } from './metrics.service';

/** `GET /metrics` in Prometheus text format (a file, not a base response; not served under /v1). */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @UseGuards(MetricsAccessGuard)
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({
    summary: 'Prometheus metrics of this instance',
    description:
      'Requests by route template and status, database errors and deadlock retries, rate-limit refusals, ban-list runs, ' +
      'webhook deliveries and the process metrics. With METRICS_TOKEN set: Authorization: Bearer <token>; unset: ' +
      'loopback clients only, and never through a proxy. Scrape each instance directly.',
  })
  @ApiSecurity('metrics-token')
  @ApiResponse({ status: 200, description: 'Prometheus text exposition format 0.0.4.', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiErrors([401, 'METRICS_TOKEN is set and the bearer token is missing or wrong.'], [403, 'No METRICS_TOKEN and the client is not a direct loopback client.'])
  scrape(): Promise<string> {
    return this.metrics.render();
  }
}
