import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, IsString, Matches, Max, Min } from 'class-validator';
import { MCID_PATTERN, UUID_PATTERN } from '../../common/identifiers';
import { INT_COLUMN_MAX, IsIntColumn } from '../../common/validation/column-range';
import { ListOf, MAX_BATCH } from '../../common/validation/lists';
import { FromJsonString } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';
import { IsTimestamp } from '../../users/dto/timestamp.decorators';
import { IsSenderId } from '../../common/validation/sender-id';

/** The sender's own id: 1-64 printable ASCII characters, no spaces. */
/** A time in milliseconds: up to a year. */
const MAX_MS = 366 * 86400 * 1000;

export class PeriodmatchResultDto {
  @ApiProperty({ description: "The game server's own id of the result (1-64 printable ASCII characters).", example: 'pm-20261122-1' })
  @IsString()
  @IsSenderId()
  id: string;

  @ApiProperty({ description: 'Game UUID with hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;

  @ApiProperty({ description: 'The player\'s game id.', example: 'Notch' })
  @IsString()
  @Matches(MCID_PATTERN, rule('validation.mcid'))
  mcid: string;

  @ApiProperty({ description: 'Successful attempts.', example: 3, minimum: 0, maximum: INT_COLUMN_MAX })
  @IsIntColumn(0)
  success: number;

  @ApiProperty({ description: 'Failed attempts.', example: 1, minimum: 0, maximum: INT_COLUMN_MAX })
  @IsIntColumn(0)
  failure: number;

  @ApiProperty({ description: 'The category: the target time in seconds.', example: 10, minimum: 0, maximum: INT_COLUMN_MAX })
  @IsIntColumn(0)
  matchTime: number;

  @ApiProperty({ description: 'The time actually played, as the game reports it.', example: 10.02, minimum: 0 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_MS)
  realMatchTime: number;

  @ApiProperty({ description: 'The measured time in milliseconds (0: ranks last).', example: 10020, minimum: 0 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_MS)
  calcMatchTime: number;

  @ApiProperty({ description: 'Start of the game, ISO 8601 with a zone.', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  startTime: Date;

  @ApiProperty({ description: 'End of the game, ISO 8601 with a zone (the players site shows it as created_at).', example: '2026-11-22T03:04:15.020Z' })
  @IsTimestamp()
  endTime: Date;
}

export class PeriodmatchBatchDto {
  @ApiProperty({ type: [PeriodmatchResultDto], description: `1 to ${MAX_BATCH} results; all stored or none.` })
  @FromJsonString()
  @ListOf(() => PeriodmatchResultDto, { min: 1, max: MAX_BATCH })
  results: PeriodmatchResultDto[];
}

export class ResultIngestDoc {
  @ApiProperty({ description: 'Results stored by this request.', example: 2 })
  accepted: number;

  @ApiProperty({ description: 'Repeats: ids stored already.', example: 0 })
  skipped: number;
}
