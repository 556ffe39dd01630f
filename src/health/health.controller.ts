import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../common/errors/api-error';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../common/errors/error-response';
import { ApiEnvelope, ApiErrors } from '../common/openapi/api-docs.decorators';
import { DatabaseHealth } from '../database/database-health';

class ReadyDoc {
  @ApiProperty({ enum: ['up'], description: 'The database answered.' })
  database: 'up';
}

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseHealth) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiEnvelope(200, 'Alive.')
  @ApiErrors([429, 'Too many requests from this address (when RATE_LIMIT_ENABLED).'])
  live(): Record<string, never> {
    return {};
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiEnvelope(200, 'Ready.', ReadyDoc)
  @ApiErrors([429, 'Too many requests from this address (when RATE_LIMIT_ENABLED).'], [503, 'The database is unreachable.'])
  async ready(): Promise<{ database: 'up' }> {
    try {
      await this.database.ping();
    } catch {
      throw ApiError.unavailable('health.databaseUnreachable', UNAVAILABLE_RETRY_AFTER_SECONDS);
    }
    return { database: 'up' };
  }
}
