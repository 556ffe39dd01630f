import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches, MaxLength } from 'class-validator';
import { MCID_PATTERN, UUID_PATTERN } from '../../common/identifiers';
import { INT_COLUMN_MAX, IsIntColumn } from '../../common/validation/column-range';
import { ListOf, MAX_BATCH } from '../../common/validation/lists';
import { FromJsonString, OptionalField, ToInt } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';
import { IsTimestamp } from '../../users/dto/timestamp.decorators';
import { PUNISHMENT_KINDS, type PunishmentKind } from '../punishment-kinds';
import { IsSenderId } from '../../common/validation/sender-id';

/** The sender's own id: 1-64 printable ASCII characters, no spaces. */
export class IssuedPunishmentDto {
  @ApiProperty({ description: "The game server's own id of the punishment (1-64 printable ASCII characters); unique per kind.", example: 'jail-1042' })
  @IsString()
  @IsSenderId()
  id: string;

  @ApiProperty({ enum: PUNISHMENT_KINDS, description: 'jail, chatjail (the mute), eban (confined to an area) or vban (the game\'s own ban).', example: 'jail' })
  @IsIn(PUNISHMENT_KINDS)
  kind: PunishmentKind;

  @ApiProperty({ description: 'Game UUID with hyphens; the player need not have logged in.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;

  @ApiProperty({ description: 'The player\'s game id now.', example: 'Notch' })
  @IsString()
  @Matches(MCID_PATTERN, rule('validation.mcid'))
  mcid: string;

  @ApiProperty({ description: 'Reason, up to 2000 characters.', example: 'Griefing' })
  @IsString()
  @MaxLength(2000)
  reason: string;

  @ApiPropertyOptional({ type: String, description: "Jail only: the jailed player's last words, up to 2000 characters.", example: 'I was framed' })
  @OptionalField()
  @IsString()
  @MaxLength(2000)
  testment?: string;

  @ApiProperty({ description: "Who issued it: the issuer's game id, CONSOLE, or the automatic moderator's name (1-64 characters).", example: 'CONSOLE' })
  @IsString()
  @Length(1, 64)
  issuedBy: string;

  @ApiProperty({ description: 'When it was issued, ISO 8601 with a zone.', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  issuedAt: Date;
}

export class IssuedPunishmentBatchDto {
  @ApiProperty({ type: [IssuedPunishmentDto], description: `1 to ${MAX_BATCH} punishments; all stored or none.` })
  @FromJsonString()
  @ListOf(() => IssuedPunishmentDto, { min: 1, max: MAX_BATCH })
  punishments: IssuedPunishmentDto[];
}

export class LiftedPunishmentDto {
  @ApiProperty({ enum: PUNISHMENT_KINDS, description: 'The kind of the punishment lifted.', example: 'jail' })
  @IsIn(PUNISHMENT_KINDS)
  kind: PunishmentKind;

  @ApiPropertyOptional({ description: "The game server's id of the punishment, as it was issued. Give this or punishmentId.", example: 'jail-1042' })
  @OptionalField()
  @IsString()
  @IsSenderId()
  id?: string;

  @ApiPropertyOptional({ description: "The service's own id (as the players site shows it), for a punishment imported from the original database. Give this or id.", example: 12, minimum: 1, maximum: INT_COLUMN_MAX })
  @OptionalField()
  @ToInt()
  @IsIntColumn(1)
  punishmentId?: number;

  @ApiProperty({ description: 'When it was lifted, ISO 8601 with a zone.', example: '2026-11-23T03:04:05.000Z' })
  @IsTimestamp()
  liftedAt: Date;
}

export class LiftedPunishmentBatchDto {
  @ApiProperty({ type: [LiftedPunishmentDto], description: `1 to ${MAX_BATCH} lifts; all applied or none.` })
  @FromJsonString()
  @ListOf(() => LiftedPunishmentDto, { min: 1, max: MAX_BATCH })
  lifts: LiftedPunishmentDto[];
}

export class PunishmentIngestResultDoc {
  @ApiProperty({ description: 'Punishments stored (or lifted) by this request.', example: 9 })
  accepted: number;

  @ApiProperty({ description: 'Repeats: ids stored already, or punishments lifted already.', example: 1 })
  skipped: number;
}
