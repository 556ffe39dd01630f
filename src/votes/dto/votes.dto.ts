import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { UUID_PATTERN } from '../../common/identifiers';
import { ListOf, MAX_BATCH } from '../../common/validation/lists';
import { FromJsonString } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';
import { IsTimestamp } from '../../users/dto/timestamp.decorators';
import { IsSenderId } from '../../common/validation/sender-id';

export class VoteItemDto {
  @ApiProperty({ description: "The sender's own id of the vote (1-64 printable ASCII characters, no spaces): a re-sent id is skipped.", example: 'mcjp-2026-11-22-000123' })
  @IsString()
  @IsSenderId()
  id: string;

  @ApiProperty({ description: 'Game UUID with hyphens; the player need not have logged in yet.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;

  @ApiProperty({ description: 'The vote site, one of VOTE_SITES (default minecraft.jp, monocraft.net); another site is a 400.', example: 'minecraft.jp' })
  @IsString()
  @Length(1, 64)
  site: string;

  @ApiProperty({ description: 'When the vote was cast, ISO 8601 with a zone.', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  votedAt: Date;
}

export class VoteBatchDto {
  @ApiProperty({ type: [VoteItemDto], description: `1 to ${MAX_BATCH} votes; all stored or none.` })
  @FromJsonString()
  @ListOf(() => VoteItemDto, { min: 1, max: MAX_BATCH })
  votes: VoteItemDto[];
}

export class LoginTextItemDto {
  @ApiProperty({ description: "The sender's own id of the change (1-64 printable ASCII characters, no spaces): a re-sent id is skipped.", example: 'logintext-000045' })
  @IsString()
  @IsSenderId()
  id: string;

  @ApiProperty({ description: 'Game UUID with hyphens; the player need not have logged in yet.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;

  @ApiProperty({ type: String, nullable: true, description: "The player's login text, up to 255 characters (shown before VIP in the join title); null or blank removes it.", example: 'Builder' })
  @ValidateIf((_object, value) => value !== null)
  @IsString()
  @MaxLength(255)
  text: string | null;

  @ApiProperty({ description: 'When the player set it, ISO 8601 with a zone; the latest change wins.', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  at: Date;
}

export class LoginTextBatchDto {
  @ApiProperty({ type: [LoginTextItemDto], description: `1 to ${MAX_BATCH} login-text changes; all stored or none.` })
  @FromJsonString()
  @ListOf(() => LoginTextItemDto, { min: 1, max: MAX_BATCH })
  loginTexts: LoginTextItemDto[];
}
