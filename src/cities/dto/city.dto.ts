import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsIn, IsInt, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { POSITIVE_INT_PATTERN, UUID_PATTERN } from '../../common/identifiers';
import { INT_COLUMN_MAX, IsIntColumn } from '../../common/validation/column-range';
import { FromJsonString, OptionalField, ToBool, ToInt, Trim } from '../../common/validation/transforms';
import { REQUEST_STATUSES, REQUEST_TYPES, type RequestStatus, type RequestType } from '../city-request.entity';
import { rule } from '../../common/validation/validation.pipe';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../page';

const TEXT_MAX = 2000;
/** Raw names get room for surrounding white space; the 1–64 rule applies after trimming. */
const RAW_NAME_MAX = 256;

class CornerDoc {
  @ApiProperty({ description: 'Corner number, 1..n in order.', example: 1 })
  id: number;

  @ApiProperty({ description: 'Block x coordinate: an integer as a number or string.', example: '-100' })
  x: string;

  @ApiProperty({ description: 'Block z coordinate: an integer as a number or string.', example: '200' })
  z: string;
}

/** The fields shared by create and edit (docs/api.md, City rules). */
class CityFieldsDto {
  @ApiProperty({ description: 'CAPTCHA verification token.' })
  @IsString()
  @Length(1, 4096)
  recaptcha: string;

  @ApiPropertyOptional({ description: 'Summary of the city, up to 2,000 characters.' })
  @OptionalField()
  @Trim()
  @IsString()
  @MaxLength(TEXT_MAX)
  summary?: string;

  @ApiPropertyOptional({ description: 'Origin of the city name, up to 2,000 characters.' })
  @OptionalField()
  @Trim()
  @IsString()
  @MaxLength(TEXT_MAX)
  origin?: string;

  @ApiPropertyOptional({
    type: [CornerDoc],
    description:
      'The area: at least 4 corners forming a simple rectilinear polygon (consecutive corners differ in exactly one axis, alternating; edges do not cross). In a form body, a JSON-encoded string.',
  })
  @OptionalField()
  @FromJsonString()
  @IsArray(rule('validation.cornersList'))
  corners?: unknown[];

  @ApiPropertyOptional({ description: 'Blocks covered, boundary included: |shoelace area| + perimeter/2 + 1. Comes with corners.', example: 100, minimum: 1, maximum: INT_COLUMN_MAX })
  @OptionalField()
  @ToInt()
  @IsIntColumn(1)
  count?: number;

  @ApiPropertyOptional({ description: 'Why the city needs more than CITY_BLOCK_LIMIT blocks (required then). Comes with corners.' })
  @OptionalField()
  @Trim()
  @IsString()
  @MaxLength(TEXT_MAX)
  reason?: string;

  @ApiPropertyOptional({
    description:
      'Game-server protection region id: 1 to 32 characters of a-z, 0-9, _ and - (stored trimmed and lower-cased); unique among registered cities and pending creates. "" means none on create and clears it on edit.',
    example: 'chuo',
  })
  @OptionalField()
  @IsString()
  @MaxLength(RAW_NAME_MAX)
  regionName?: string;

  @ApiPropertyOptional({ description: 'Free note, up to 2,000 characters.' })
  @OptionalField()
  @Trim()
  @IsString()
  @MaxLength(TEXT_MAX)
  remarks?: string;
}

export class CreateCityDto extends CityFieldsDto {
  @ApiPropertyOptional({
    description:
      'A user key from /getuserkey (10 letters, spent by a successful request) or, for the club site, a club user token (32 characters, not spent). Also accepted as Authorization: Bearer; one of the two is required unless force=true with an operator key.',
  })
  @OptionalField()
  @IsString()
  @MaxLength(64)
  usertoken?: string;

  @ApiProperty({ description: 'City name: 1 to 64 characters after trimming; unique (NFKC, case-insensitive).', example: 'Chuo' })
  @IsString()
  @MaxLength(RAW_NAME_MAX)
  cityName: string;

  @ApiProperty({ description: 'Reading in kana (hiragana, katakana, ー, ・, spaces); unique (NFKC, case-insensitive).', example: 'ちゅうおう' })
  @IsString()
  @MaxLength(RAW_NAME_MAX)
  cityNameKana: string;

  @ApiPropertyOptional({ description: 'Register at once as approved; needs an operator apikey. Default false.' })
  @OptionalField()
  @ToBool()
  @IsBoolean()
  force?: boolean;

  @ApiPropertyOptional({ description: 'Operator API key (with force=true). Also accepted as X-API-Key.' })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  apikey?: string;
}

export class EditCityDto extends CityFieldsDto {
  @ApiProperty({ description: 'City id (path).', example: '12' })
  @Matches(POSITIVE_INT_PATTERN, rule('validation.positiveInteger'))
  id: string;

  @ApiPropertyOptional({ description: 'Club user token (32 characters). Required unless sent as Authorization: Bearer.' })
  @OptionalField()
  @IsString()
  usertoken?: string;

  @ApiPropertyOptional({ description: 'New city name.' })
  @OptionalField()
  @IsString()
  @MaxLength(RAW_NAME_MAX)
  cityName?: string;

  @ApiPropertyOptional({ description: 'New kana reading.' })
  @OptionalField()
  @IsString()
  @MaxLength(RAW_NAME_MAX)
  cityNameKana?: string;
}

export class FindCitiesDto {
  @ApiPropertyOptional({ description: 'City id.', required: false, example: '12' })
  @OptionalField()
  @Matches(POSITIVE_INT_PATTERN, rule('validation.positiveInteger'))
  id?: string;

  @ApiPropertyOptional({ description: 'City name (exact, case-insensitive after NFKC).', required: false, example: 'Chuo' })
  @OptionalField()
  @IsString()
  @Length(1, RAW_NAME_MAX)
  name?: string;
}

/** `/cities/{id}`: digits name a city, a uuid names an administrator. A query `id` wins over the path. */
export class FindCityByPathDto {
  @ApiProperty({ description: 'City id (digits) or administrator uuid (with hyphens).' })
  @IsString()
  @Matches(new RegExp(`${POSITIVE_INT_PATTERN.source}|${UUID_PATTERN.source}`), rule('validation.cityIdOrUuid'))
  id: string;

  @ApiPropertyOptional({ description: 'City name (exact, case-insensitive).', required: false })
  @OptionalField()
  @IsString()
  @Length(1, RAW_NAME_MAX)
  name?: string;
}

export class CityIdDto {
  @ApiProperty({ description: 'City id (path).', example: '12' })
  @Matches(POSITIVE_INT_PATTERN, rule('validation.positiveInteger'))
  id: string;
}

export class ApprovalDto extends CityIdDto {
  @ApiProperty({ enum: REQUEST_TYPES, description: 'Request type (path).' })
  @IsIn(REQUEST_TYPES)
  type: RequestType;
}

export class RejectDto {
  @ApiProperty({ enum: REQUEST_TYPES, description: 'Request type (path).' })
  @IsIn(REQUEST_TYPES)
  type: RequestType;

  @ApiProperty({ description: 'Request id (path).', example: '7' })
  @Matches(POSITIVE_INT_PATTERN, rule('validation.positiveInteger'))
  requestId: string;

  @ApiPropertyOptional({ description: 'Why the request is rejected; stored as rejectReason.' })
  @OptionalField()
  @Trim()
  @IsString()
  @MaxLength(TEXT_MAX)
  reason?: string;
}

/** Paging (docs/api.md, Requests and responses): `limit` entries after the id `after`, oldest first. */
export class PageDto {
  @ApiPropertyOptional({ description: `Entries per page, 1 to ${MAX_PAGE_LIMIT}.`, default: DEFAULT_PAGE_LIMIT, minimum: 1, maximum: MAX_PAGE_LIMIT })
  @OptionalField()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'Only entries with a greater id: the `next` of the previous page.', default: 0, minimum: 0, maximum: INT_COLUMN_MAX })
  @OptionalField()
  @ToInt()
  @IsIntColumn(0)
  after?: number;
}

export class ListRequestsDto extends PageDto {
  @ApiPropertyOptional({ enum: REQUEST_STATUSES, description: 'Request status (default pending).', required: false })
  @OptionalField()
  @IsIn(REQUEST_STATUSES)
  status?: RequestStatus;

  @ApiPropertyOptional({ enum: REQUEST_TYPES, description: 'Request type.', required: false })
  @OptionalField()
  @IsIn(REQUEST_TYPES)
  type?: RequestType;

  @ApiPropertyOptional({ description: 'City id.', required: false })
  @OptionalField()
  @Matches(POSITIVE_INT_PATTERN, rule('validation.positiveInteger'))
  cityId?: string;
}

export class CityHistoryDto extends PageDto {
  @ApiProperty({ description: 'City id (path).', example: '12' })
  @Matches(POSITIVE_INT_PATTERN, rule('validation.positiveInteger'))
  id: string;
}

export class RequestIdDto {
  @ApiProperty({ description: 'Request id (path).', example: 7 })
  @Matches(POSITIVE_INT_PATTERN, rule('validation.positiveInteger'))
  requestId: string;
}
