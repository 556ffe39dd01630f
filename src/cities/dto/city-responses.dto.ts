import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIT_ACTIONS } from '../city-audit.entity';
import { CITY_STATES } from '../city.entity';
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

  @ApiProperty({ nullable: true, type: String, description: 'Game-server protection region id (lower case).', example: 'chuo' })
  regionName: string | null;

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

/** Contract 13.2: the single-city reads also carry the earlier service's flat names. */
export class SingleCityDoc extends CityDoc {
  @ApiProperty({ description: 'Earlier name of owner.uuid.' })
  uuid: string;

  @ApiProperty({ nullable: true, type: String, description: 'Earlier name of owner.mcid.' })
  mcid: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Earlier name of owner.chatid.' })
  discordid: string | null;

  @ApiProperty({ description: 'Earlier name of nameKana.' })
  namekana: string;

  @ApiProperty({ nullable: true, type: String, description: 'Earlier name of origin.' })
  name_origin: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Earlier name of regionName.' })
  regionname: string | null;

  @ApiProperty({ description: 'Earlier name of count.' })
  blocknum: number;
}

class RequestCityDoc {
  @ApiProperty({ example: 12 })
  id: number;

  @ApiProperty({ description: "The city's current name (the requested one for a create).", example: 'Chuo' })
  name: string;
}

class RequesterDoc {
  @ApiProperty()
  uuid: string;

  @ApiProperty({ nullable: true, type: String })
  mcid: string | null;
}

/** The fields a request asks to change, as filed (contract 13.5). */
class RequestedChangesDoc {
  @ApiPropertyOptional({ example: 'Chuo' })
  cityName?: string;

  @ApiPropertyOptional({ example: 'ちゅうおう' })
  cityNameKana?: string;

  @ApiPropertyOptional()
  summary?: string;

  @ApiPropertyOptional()
  origin?: string;

  @ApiPropertyOptional({ description: 'Lower case; "" in an update clears it.', example: 'chuo' })
  regionName?: string;

  @ApiPropertyOptional({ type: [CornerOutDoc] })
  corners?: CornerOutDoc[];

  @ApiPropertyOptional({ description: 'Blocks covered by the requested corners.', example: 10201 })
  count?: number;

  @ApiPropertyOptional({ description: 'Why a large city needs its size.' })
  reason?: string;

  @ApiPropertyOptional({ description: "New remarks for the city (the request's own remarks, also in the request's remarks)." })
  remarks?: string;
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

  @ApiProperty({ type: RequestCityDoc })
  city: RequestCityDoc;

  @ApiProperty({ type: RequesterDoc })
  requester: RequesterDoc;

  @ApiProperty({ type: RequestedChangesDoc, description: 'The requested fields, named as in the input; only those the request changes are present.' })
  changes: RequestedChangesDoc;

  @ApiProperty({ nullable: true, type: String })
  remarks: string | null;

  @ApiProperty()
  createdAt: string;

  @ApiProperty({ nullable: true, type: String })
  decidedAt: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'apikey:<key name> or club:<uuid>; null while pending.', example: 'apikey:ops' })
  decidedBy: string | null;

  @ApiProperty({ nullable: true, type: String })
  rejectReason: string | null;
}

/** The city as an audit entry records it. */
class CitySnapshotDoc {
  @ApiPropertyOptional({ enum: CITY_STATES, description: 'A city stays pending until its create request is approved.' })
  state?: string;

  @ApiPropertyOptional()
  name?: string;

  @ApiPropertyOptional()
  nameKana?: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  summary?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  origin?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  regionName?: string | null;

  @ApiPropertyOptional({ type: [CornerOutDoc] })
  corners?: CornerOutDoc[];

  @ApiPropertyOptional()
  count?: number;

  @ApiPropertyOptional({ nullable: true, type: String })
  reason?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  remarks?: string | null;

  @ApiPropertyOptional()
  ownerUuid?: string;
}

/** A request as an audit entry records it. */
class RequestSnapshotDoc {
  @ApiPropertyOptional()
  id?: number;

  @ApiPropertyOptional({ enum: REQUEST_TYPES })
  type?: string;

  @ApiPropertyOptional({ enum: REQUEST_STATUSES })
  status?: string;

  @ApiPropertyOptional()
  requesterUuid?: string;

  @ApiPropertyOptional({ type: RequestedChangesDoc })
  changes?: RequestedChangesDoc;

  @ApiPropertyOptional({ nullable: true, type: String })
  rejectReason?: string | null;
}

class HistorySnapshotDoc {
  @ApiPropertyOptional({ type: CitySnapshotDoc })
  city?: CitySnapshotDoc;

  @ApiPropertyOptional({ type: RequestSnapshotDoc })
  request?: RequestSnapshotDoc;
}

class HistoryEntryDoc {
  @ApiProperty()
  id: number;

  @ApiProperty({ enum: AUDIT_ACTIONS, description: "What happened: a request's life (<type>_requested, _forced, _approved, _rejected, _withdrawn) or deleted." })
  action: string;

  @ApiProperty({ description: 'Who: player:<uuid> (user key), club:<uuid> (club token) or apikey:<name>.' })
  actor: string;

  @ApiProperty({ nullable: true, type: Number })
  requestId: number | null;

  @ApiProperty({ nullable: true, type: HistorySnapshotDoc, description: 'The city and the request before the change.' })
  before: HistorySnapshotDoc | null;

  @ApiProperty({ nullable: true, type: HistorySnapshotDoc, description: 'The city and the request after the change.' })
  after: HistorySnapshotDoc | null;

  @ApiProperty()
  at: string;
}

export class CityListResponseDoc {
  @ApiProperty({
    oneOf: [{ type: 'array', items: { $ref: '#/components/schemas/CityDoc' } }, { $ref: '#/components/schemas/SingleCityDoc' }],
    description: 'Every registered city without parameters; one city (with the flat names of 13.2) with id or name.',
  })
  data: CityDoc[] | SingleCityDoc;
}

export class CityPathResponseDoc {
  @ApiProperty({
    oneOf: [{ $ref: '#/components/schemas/SingleCityDoc' }, { type: 'array', items: { $ref: '#/components/schemas/CityDoc' } }],
    description: 'One city (with the flat names of 13.2) for a city id; an array for an administrator uuid.',
  })
  data: SingleCityDoc | CityDoc[];
}

export class CreateCityResponseDoc {
  @ApiProperty({ example: 7 })
  requestId: number;

  @ApiProperty({ description: 'Equals requestId (the earlier service\'s name).', example: 7 })
  request_id: number;

  @ApiProperty({ example: 12 })
  cityId: number;

  @ApiProperty({ enum: ['pending', 'approved'] })
  requestStatus: string;
}

export class EditCityResponseDoc {
  @ApiPropertyOptional({ description: 'The filed request (requestStatus pending).', example: 8 })
  requestId?: number;

  @ApiPropertyOptional({ description: 'Equals requestId (the earlier service\'s name).', example: 8 })
  request_id?: number;

  @ApiProperty({ enum: ['pending', 'applied'] })
  requestStatus: string;

  @ApiPropertyOptional({ type: CityDoc, description: 'The updated city (requestStatus applied).' })
  data?: CityDoc;
}

export class CityRequestListResponseDoc {
  @ApiProperty({ type: [CityRequestDoc] })
  data: CityRequestDoc[];

  @ApiProperty({ nullable: true, type: Number, description: 'The last returned id when more entries follow (pass it as after), else null.' })
  next: number | null;
}

export class CityHistoryResponseDoc {
  @ApiProperty({ type: [HistoryEntryDoc] })
  data: HistoryEntryDoc[];

  @ApiProperty({ nullable: true, type: Number, description: 'The last returned id when more entries follow (pass it as after), else null.' })
  next: number | null;
}

class ConflictDoc {
  @ApiProperty({ enum: ['name', 'kana', 'regionName', 'region'] })
  kind: string;

  @ApiProperty({ description: 'The city already holding it.', example: 12 })
  cityId: number;

  @ApiProperty({ description: "That city's name.", example: 'Chuo' })
  name: string;
}

export class ConflictListResponseDoc {
  @ApiProperty({ type: [ConflictDoc], description: 'Empty when the request could be approved now.' })
  data: ConflictDoc[];
}
