import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { REQUEST_STATUSES, REQUEST_TYPES } from '../city-request.entity';

class CornerOutDoc {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ description: 'Integer as a string.', example: '-100' })
  x: string;

  @ApiProperty({ description: 'Integer as a string.', example: '200' })
  z: string;
}

class OwnerDoc {
  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ nullable: true, type: String, example: 'Notch' })
  mcid: string | null;

  @ApiProperty({ nullable: true, type: String, example: null })
  chatid: string | null;
}

export class CityDoc {
  @ApiProperty({ example: 12 })
  id: number;

  @ApiProperty({ example: 'Chuo' })
  name: string;

  @ApiProperty({ example: 'ちゅうおう' })
  nameKana: string;

  @ApiProperty({ nullable: true, type: String })
  summary: string | null;

  @ApiProperty({ nullable: true, type: String })
  origin: string | null;

  @ApiProperty({ type: [CornerOutDoc] })
  corners: CornerOutDoc[];

  @ApiProperty({ description: 'Blocks covered, boundary included.', example: 10201 })
  count: number;

  @ApiProperty({ nullable: true, type: String })
  reason: string | null;

  @ApiProperty({ nullable: true, type: String })
  remarks: string | null;

  @ApiProperty({ type: OwnerDoc, description: 'The city administrator.' })
  owner: OwnerDoc;

  @ApiProperty({ example: '2026-11-22T03:04:05.000Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-11-22T03:04:05.000Z' })
  updatedAt: string;
}

class RequesterDoc {
  @ApiProperty()
  uuid: string;

  @ApiProperty({ nullable: true, type: String })
  mcid: string | null;
}

export class CityRequestDoc {
  @ApiProperty({ example: 7 })
  id: number;

  @ApiProperty({ enum: REQUEST_TYPES })
  type: string;

  @ApiProperty({ enum: REQUEST_STATUSES })
  status: string;

  @ApiProperty({ example: 12 })
  cityId: number;

  @ApiProperty({ type: RequesterDoc })
  requester: RequesterDoc;

  @ApiProperty({ description: 'The requested fields, named as in the input (cityName, cityNameKana, summary, origin, corners, count, reason, remarks).', type: Object })
  changes: Record<string, unknown>;

  @ApiProperty({ nullable: true, type: String })
  remarks: string | null;

  @ApiProperty()
  createdAt: string;

  @ApiProperty({ nullable: true, type: String })
  decidedAt: string | null;

  @ApiProperty({ nullable: true, type: String })
  rejectReason: string | null;
}

class HistoryEntryDoc {
  @ApiProperty()
  id: number;

  @ApiProperty({ description: 'What happened, e.g. create_requested, create_approved, update_forced, region_rejected, deleted.' })
  action: string;

  @ApiProperty({ description: 'Who: player:<uuid> (user key), club:<uuid> (club token) or apikey:<name>.' })
  actor: string;

  @ApiProperty({ nullable: true, type: Number })
  requestId: number | null;

  @ApiProperty({ nullable: true, type: Object, description: '{city?, request?} before the change.' })
  before: unknown;

  @ApiProperty({ nullable: true, type: Object, description: '{city?, request?} after the change.' })
  after: unknown;

  @ApiProperty()
  at: string;
}

export class CityResponseDoc {
  @ApiProperty({ type: CityDoc })
  data: CityDoc;
}

export class CityListResponseDoc {
  @ApiProperty({
    oneOf: [{ type: 'array', items: { $ref: '#/components/schemas/CityDoc' } }, { $ref: '#/components/schemas/CityDoc' }],
    description: 'Every registered city (ordered by id) without parameters; the one city matching id and/or name with them.',
  })
  data: CityDoc[] | CityDoc;
}

export class CityPathResponseDoc {
  @ApiProperty({ oneOf: [{ $ref: '#/components/schemas/CityDoc' }, { type: 'array', items: { $ref: '#/components/schemas/CityDoc' } }], description: 'One city for a city id; an array for an administrator uuid.' })
  data: CityDoc | CityDoc[];
}

export class CreateCityResponseDoc {
  @ApiProperty({ example: 7 })
  requestId: number;

  @ApiProperty({ example: 12 })
  cityId: number;

  @ApiProperty({ enum: ['pending', 'approved'] })
  requestStatus: string;
}

export class EditCityResponseDoc {
  @ApiPropertyOptional({ description: 'The filed request (requestStatus pending).', example: 8 })
  requestId?: number;

  @ApiProperty({ enum: ['pending', 'applied'] })
  requestStatus: string;

  @ApiPropertyOptional({ type: CityDoc, description: 'The updated city (requestStatus applied).' })
  data?: CityDoc;
}

export class CityRequestListResponseDoc {
  @ApiProperty({ type: [CityRequestDoc] })
  data: CityRequestDoc[];
}

export class CityHistoryResponseDoc {
  @ApiProperty({ type: [HistoryEntryDoc] })
  data: HistoryEntryDoc[];
}
