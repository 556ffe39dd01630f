import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalField, ToInt, Transformed } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';
import { IsTimestamp } from '../../users/dto/timestamp.decorators';
import { DEFAULT_RECORDS_LIMIT, MAX_RECORDS_LIMIT, NOTE_MAX } from '../moderation-limits';
import { RECORD_KINDS, type RecordKind } from '../../evidence/record-ref';

/** A uuid with hyphens or the 32-hex form, any case. */
const ANY_UUID = /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
const KIND_LIST = new RegExp(`^(?:${RECORD_KINDS.join('|')})(?:,(?:${RECORD_KINDS.join('|')}))*$`);
export const RECORD_STATES = ['active', 'lifted', 'all'] as const;

export class SearchPlayersDto {
  @ApiProperty({ description: 'The start of a game id (any case), a uuid with or without hyphens, or a chat id (17-20 digits).', example: 'Not' })
  @IsString()
  @Length(1, 64)
  q: string;
}

export class PlayerUuidDto {
  @ApiProperty({ description: 'Game UUID, with or without hyphens (path).', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(ANY_UUID, rule('validation.anyUuid'))
  uuid: string;
}

export class ListRecordsDto {
  @ApiPropertyOptional({
    description: `Kinds (${RECORD_KINDS.join(', ')}), comma-separated or the parameter repeated; every kind when absent.`,
    example: 'vban,eban',
  })
  @OptionalField()
  // The one query parameter that may be repeated (app.factory.ts lets it through): one list either way.
  @Transformed(({ value }: { value: unknown }) => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join(',') : value))
  @IsString()
  @Matches(KIND_LIST, rule('validation.recordKinds'))
  kind?: string;

  @ApiPropertyOptional({ enum: RECORD_STATES, description: 'In force (active), no longer (lifted), or both (all, the default).' })
  @OptionalField()
  @IsIn(RECORD_STATES)
  state?: (typeof RECORD_STATES)[number];

  @ApiPropertyOptional({ description: 'Who issued it, exactly as stored (a game id, CONSOLE, …).', example: 'CONSOLE' })
  @OptionalField()
  @IsString()
  @Length(1, 64)
  issuer?: string;

  @ApiPropertyOptional({ description: 'The player: a game UUID, with or without hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @OptionalField()
  @IsString()
  @Matches(ANY_UUID, rule('validation.anyUuid'))
  player?: string;

  @ApiPropertyOptional({ description: 'Issued at or after this time (ISO 8601 with a zone).', example: '2026-11-01T00:00:00Z' })
  @OptionalField()
  @IsTimestamp()
  from?: Date;

  @ApiPropertyOptional({ description: 'Issued before this time (ISO 8601 with a zone).', example: '2026-12-01T00:00:00Z' })
  @OptionalField()
  @IsTimestamp()
  to?: Date;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page.' })
  @OptionalField()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, rule('validation.cursor'))
  cursor?: string;

  @ApiPropertyOptional({ description: `Records per page, 1 to ${MAX_RECORDS_LIMIT}.`, default: DEFAULT_RECORDS_LIMIT, minimum: 1, maximum: MAX_RECORDS_LIMIT })
  @OptionalField()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(MAX_RECORDS_LIMIT)
  limit?: number;
}

export class RecordRefDto {
  @ApiProperty({ enum: RECORD_KINDS, description: 'The record kind (path).', example: 'vban' })
  @IsIn(RECORD_KINDS)
  kind: RecordKind;

  @ApiProperty({ description: "The record's id (path): a punishment id for jail, chatban, eban and vban; a ban id for gban and lban.", example: '12' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,40}$/, rule('validation.recordId'))
  id: string;
}

export class LiftRecordDto extends RecordRefDto {
  @ApiPropertyOptional({ description: `Why it is lifted, up to ${NOTE_MAX} characters (shown in the record's history).`, example: 'Appeal accepted' })
  @OptionalField()
  @IsString()
  @MaxLength(NOTE_MAX)
  reason?: string;
}

export class RecordNoteDto extends RecordRefDto {
  @ApiProperty({ description: `The note, up to ${NOTE_MAX} characters; empty (or blank) clears it.`, example: 'Appealed on Discord; see the screenshots.' })
  @IsString()
  @MaxLength(NOTE_MAX)
  note: string;
}

export class EvidenceNameDto extends RecordRefDto {
  @ApiProperty({ description: "The picture's name, as listed in the record's evidence (path).", example: '0123456789abcdef0123456789abcdef.png' })
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, rule('validation.evidenceName'))
  name: string;
}
