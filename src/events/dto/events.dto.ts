import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { OptionalField, ToInt } from '../../common/validation/transforms';

export class EventFeedDto {
  @ApiProperty({ required: false, description: 'Only events with a greater id (default 0).', example: 0 })
  @OptionalField()
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  after?: number;

  @ApiProperty({ required: false, description: 'At most this many events, 1-500 (default 100).', example: 100 })
  @OptionalField()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiProperty({ required: false, description: 'Seconds to wait for a first event when none is there yet, 0-30 (default 0).', example: 25 })
  @OptionalField()
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(30)
  wait?: number;
}

export class EventDoc {
  @ApiProperty({ example: 42 })
  id: number;

  @ApiProperty({ enum: ['city.request.created', 'city.request.approved', 'city.request.rejected', 'city.changed', 'city.deleted', 'banlist.sync.finished', 'punishment.issued', 'punishment.lifted'] })
  type: string;

  @ApiProperty({ example: '2026-11-22T03:04:05.000Z' })
  at: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: '{request, city} for city events, {summary} for banlist.sync.finished, {punishment} for punishment events. Ignore types you do not know: new ones are added.' })
  data: Record<string, unknown>;
}

export class EventFeedDoc {
  @ApiProperty({ type: [EventDoc] })
  data: EventDoc[];

  @ApiProperty({ description: 'The last id returned, or `after` when none: pass it as the next `after`.', example: 42 })
  next: number;
}
