import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { MCID_PATTERN, UUID_PATTERN } from '../../common/identifiers';
import { rule } from '../../common/validation/validation.pipe';

export class IssueUserKeyDto {
  @ApiProperty({ description: 'Game UUID of the player, with hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;

  @ApiProperty({ description: 'Current game id of the player.', example: 'Notch' })
  @IsString()
  @Matches(MCID_PATTERN, rule('validation.mcid'))
  mcid: string;
}
