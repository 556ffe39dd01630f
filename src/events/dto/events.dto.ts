import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { OptionalField, ToInt } from '../../common/validation/transforms';

export class EventFeedDto {
  @ApiProperty({ required: false, description: 'Only events with a greater id (default 0).', example: 0 })
  @OptionalField()
  @ToInt()
  @IsInt({ message: 'after must be an integer of 0 or more' })
  @Min(0, { message: 'after must be an integer of 0 or more' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'after must be an integer of 0 or more' })
  after?: number;

  @ApiProperty({ required: false, description: 'At most this many events, 1-500 (default 100).', example: 100 })
  @OptionalField()
  @ToInt()
  @IsInt({ message: 'limit must be an integer from 1 to 500' })
  @Min(1, { message: 'limit must be an integer from 1 to 500' })
  @Max(500, { message: 'limit must be an integer from 1 to 500' })
  limit?: number;

  @ApiProperty({ required: false, description: 'Seconds to wait for a first event when none is there yet, 0-30 (default 0).', example: 25 })
  @OptionalField()
  @ToInt()
  @IsInt({ message: 'wait must be an integer from 0 to 30' })
  @Min(0, { message: 'wait must be an integer from 0 to 30' })
  @Max(30, { message: 'wait must be an integer from 0 to 30' })
  wait?: number;
}

export class EventDoc {
  @ApiProperty({ example: 42 })
  id: number;

  @ApiProperty({ enum: ['city.request.created', 'city.request.approved', 'city.request.rejected', 'city.changed', 'city.deleted', 'banlist.sync.finished'] })
  type: string;

  @ApiProperty({ example: '2026-11-22T03:04:05.000Z' })
  at: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: '{request, city} for city events, {summary} for banlist.sync.finished.' })
  data: Record<string, unknown>;
}

export class EventFeedDoc {
  @ApiProperty({ type: [EventDoc] })
  data: EventDoc[];

  @ApiProperty({ description: 'The last id returned, or `after` when none: pass it as the next `after`.', example: 42 })
  next: number;
}
