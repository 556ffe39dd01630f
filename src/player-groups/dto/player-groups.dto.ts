import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, ValidateIf } from 'class-validator';
import { UUID_PATTERN } from '../../common/identifiers';
import { ListOf, MAX_BATCH } from '../../common/validation/lists';
import { FromJsonString } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';
import { IsTimestamp } from '../../users/dto/timestamp.decorators';
import { IsSenderId } from '../../common/validation/sender-id';

export class GroupChangeItemDto {
  @ApiProperty({ description: "The sender's own id of the change (1-64 printable ASCII characters, no spaces): a re-sent id is skipped.", example: 'perm-000123' })
  @IsString()
  @IsSenderId()
  id: string;

  @ApiProperty({ description: 'Game UUID with hyphens; the player need not have logged in yet.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;

  @ApiProperty({ description: 'The permission group: 1-64 letters, digits, _ . + or - (stored in lower case).', example: 'verified' })
  @IsString()
  @Matches(/^[A-Za-z0-9_.+-]{1,64}$/)
  group: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'When a temporary group ends, ISO 8601 with a zone; absent or null: it does not.', example: '2027-02-20T00:00:00.000Z' })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsTimestamp()
  expiresAt?: Date | null;

  @ApiProperty({ description: 'When the group was given, ISO 8601 with a zone; the latest change wins (and a newer login carries its own group).', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  at: Date;
}

export class GroupChangeBatchDto {
  @ApiProperty({ type: [GroupChangeItemDto], description: `1 to ${MAX_BATCH} group changes; all stored or none.` })
  @FromJsonString()
  @ListOf(() => GroupChangeItemDto, { min: 1, max: MAX_BATCH })
  groupChanges: GroupChangeItemDto[];
}
