import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { MCID_PATTERN, UUID_PATTERN } from '../../common/identifiers';
import { ListOf, MAX_BATCH } from '../../common/validation/lists';
import { FromJsonString, OptionalField, ToInt } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';
import { IsTimestamp } from '../../users/dto/timestamp.decorators';
import { IsSenderId } from '../../common/validation/sender-id';

/** The most away time one report may carry: 31 days. */
export const MAX_AWAY_SECONDS = 31 * 86_400;


export class SessionReportDto {
  @ApiProperty({ description: "The game server's own id of the session (1-64 printable ASCII characters); every report of one session carries it.", example: 'survival-1:2026-11-22:42' })
  @IsString()
  @IsSenderId()
  id: string;

  @ApiProperty({ description: 'Game UUID with hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;

  @ApiProperty({ description: 'Game id the player plays with (names a player not seen before).', example: 'Notch' })
  @IsString()
  @Matches(MCID_PATTERN, rule('validation.mcid'))
  mcid: string;

  @ApiProperty({ description: 'When the player joined, ISO 8601 with a zone; the same in every report of the session.', example: '2026-11-22T03:00:00Z' })
  @IsTimestamp()
  startedAt: Date;

  @ApiPropertyOptional({ description: 'The latest time the player was seen playing (absent in the join report).', example: '2026-11-22T03:30:00Z' })
  @OptionalField()
  @IsTimestamp()
  lastActiveAt?: Date;

  @ApiPropertyOptional({ description: 'When the player quit (only in the last report of the session).', example: '2026-11-22T04:00:00Z' })
  @OptionalField()
  @IsTimestamp()
  endedAt?: Date;
}

export class SessionBatchDto {
  @ApiPropertyOptional({ description: 'Which server reports, when one API key serves several (1-64 printable ASCII characters; default: none).', example: 'survival-1' })
  @IsOptional()
  @IsString()
  @IsSenderId()
  server?: string;

  @ApiPropertyOptional({
    description: "The server (this key and `server`) started at this time: its sessions still open from before then were cut off by a crash and end at their last reported activity.",
    example: '2026-11-22T02:55:00Z',
  })
  @OptionalField()
  @IsTimestamp()
  serverStartedAt?: Date;

  @ApiProperty({ type: [SessionReportDto], description: `1 to ${MAX_BATCH} session reports, applied in order, in one transaction.` })
  @FromJsonString()
  @ListOf(() => SessionReportDto, { min: 1, max: MAX_BATCH })
  sessions: SessionReportDto[];
}

export class AwayReportDto {
  @ApiProperty({ description: "The game server's own id of this report (1-64 printable ASCII characters).", example: 'survival-1:afk:9001' })
  @IsString()
  @IsSenderId()
  id: string;

  @ApiProperty({ description: 'Game UUID with hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;

  @ApiProperty({ description: 'Game id the player plays with (names a player not seen before).', example: 'Notch' })
  @IsString()
  @Matches(MCID_PATTERN, rule('validation.mcid'))
  mcid: string;

  @ApiProperty({ description: `Seconds away from the keyboard (1 to ${MAX_AWAY_SECONDS}).`, example: 600, minimum: 1, maximum: MAX_AWAY_SECONDS })
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(MAX_AWAY_SECONDS)
  seconds: number;

  @ApiProperty({ description: 'When the away time ended, ISO 8601 with a zone.', example: '2026-11-22T03:40:00Z' })
  @IsTimestamp()
  at: Date;
}

export class AwayBatchDto {
  @ApiProperty({ type: [AwayReportDto], description: `1 to ${MAX_BATCH} away-time reports, in one transaction.` })
  @FromJsonString()
  @ListOf(() => AwayReportDto, { min: 1, max: MAX_BATCH })
  away: AwayReportDto[];
}
