import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString } from 'class-validator';
import { OptionalField, ToBool } from '../../common/validation/transforms';

/** A list's parameters (docs/bans-site.md, "Lists"). */
export class BansListQueryDto {
  @ApiPropertyOptional({ description: 'true: every record, not only the 15 newest.', type: Boolean, example: true })
  @OptionalField()
  @ToBool()
  @IsBoolean()
  all_items?: boolean;

  @ApiPropertyOptional({ description: 'false: lifted records too (`status: false`). Default: records in force only.', type: Boolean, example: false })
  @OptionalField()
  @ToBool()
  @IsBoolean()
  active_only?: boolean;
}

/** A path naming a player: a game id, a uuid (with or without hyphens) or a chat id. */
export class BansPlayerPathDto {
  @ApiProperty({ description: 'Game id (any case), uuid with or without hyphens, or chat id.', example: 'Notch' })
  @IsString()
  player: string;
}

/** A path naming one record. */
export class BansDetailPathDto {
  @ApiProperty({ description: 'gban, lban, vban, eban or chatban. Any other text names no record (`status: false`).', example: 'vban' })
  @IsString()
  kind: string;

  @ApiProperty({ description: 'The ban id (gban, lban) or punishment id. Anything but a positive integer names no record.', example: '42' })
  @IsString()
  id: string;
}
