import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { CHATID_PATTERN, MCID_PATTERN, UUID_PATTERN } from '../../common/identifiers';
import { INT_COLUMN_MAX, IsIntColumn } from '../../common/validation/column-range';
import { ListOf, MAX_BATCH } from '../../common/validation/lists';
import { FromJsonString, OptionalField, ToBool, ToInt, Trim } from '../../common/validation/transforms';
import { IsTimestamp } from './timestamp.decorators';
import { rule } from '../../common/validation/validation.pipe';

const uuidRule = Matches(UUID_PATTERN, rule('validation.uuid'));

export class LoginItemDto {
  @ApiProperty({ description: 'Game UUID with hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @uuidRule
  uuid: string;

  @ApiProperty({ description: 'Game id the player logged in with.', example: 'Notch' })
  @IsString()
  @Matches(MCID_PATTERN, rule('validation.mcid'))
  mcid: string;

  @ApiProperty({ description: 'Time of the login, ISO 8601 with a zone.', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  loggedInAt: Date;

  @ApiPropertyOptional({ type: String, description: 'Permission group at that login (null or absent: none).', example: 'default', nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  permission?: string | null;
}

export class LoginBatchDto {
  @ApiProperty({ type: [LoginItemDto], description: `1 to ${MAX_BATCH} login records; stored in one transaction.` })
  @FromJsonString()
  @ListOf(() => LoginItemDto, { min: 1, max: MAX_BATCH })
  logins: LoginItemDto[];
}

export class ChatLinkDto {
  @ApiProperty({ description: 'Game UUID (path).' })
  @IsString()
  @uuidRule
  uuid: string;

  @ApiProperty({ description: 'Chat id to link (17-20 digits).', example: '123456789012345678' })
  @IsString()
  @Matches(CHATID_PATTERN, rule('validation.chatid'))
  chatid: string;
}

export class PlayerPathDto {
  @ApiProperty({ description: 'Game UUID (path).' })
  @IsString()
  @uuidRule
  uuid: string;
}

export class AchievementDefinitionDto {
  @ApiProperty({ description: "The achievement plugin's id (positive integer).", example: 12, minimum: 1, maximum: INT_COLUMN_MAX })
  @ToInt()
  @IsIntColumn(1)
  id: number;

  @ApiProperty({ description: 'Title, 1-255 characters.', example: 'First city' })
  @Trim()
  @IsString()
  @Length(1, 255)
  title: string;

  @ApiProperty({ description: 'Description, up to 4000 characters (may be empty).', example: 'Found your first city.' })
  @IsString()
  @MaxLength(4000)
  description: string;

  @ApiPropertyOptional({ description: 'Hidden until unlocked (default false).', example: false })
  @OptionalField()
  @ToBool()
  @IsBoolean()
  hidden?: boolean;
}

export class AchievementDefinitionsDto {
  @ApiProperty({ type: [AchievementDefinitionDto], description: `1 to ${MAX_BATCH} definitions, created or replaced by id.` })
  @FromJsonString()
  @ListOf(() => AchievementDefinitionDto, { min: 1, max: MAX_BATCH })
  achievements: AchievementDefinitionDto[];
}

export class UnlockItemDto {
  @ApiProperty({ description: 'Game UUID with hyphens; the player need not have logged in yet.' })
  @IsString()
  @uuidRule
  uuid: string;

  @ApiProperty({ description: 'Id of a defined achievement.', example: 12, minimum: 1, maximum: INT_COLUMN_MAX })
  @ToInt()
  @IsIntColumn(1)
  achievementId: number;

  @ApiProperty({ description: 'When it was unlocked, ISO 8601 with a zone.', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  unlockedAt: Date;
}

export class UnlockBatchDto {
  @ApiProperty({ type: [UnlockItemDto], description: `1 to ${MAX_BATCH} unlocks; all stored or none.` })
  @FromJsonString()
  @ListOf(() => UnlockItemDto, { min: 1, max: MAX_BATCH })
  unlocks: UnlockItemDto[];
}

export class IngestResultDoc {
  @ApiProperty({ description: 'Records stored by this request.', example: 998 })
  accepted: number;

  @ApiProperty({ description: 'Records skipped: repeats already stored (and, for logins, records before DATA_CUTOFF).', example: 2 })
  skipped: number;
}

export class UpsertedDoc {
  @ApiProperty({ description: 'Definitions created or replaced.', example: 40 })
  upserted: number;
}

export class ChatLinkDoc {
  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ type: String, nullable: true, example: '123456789012345678' })
  chatid: string | null;
}
