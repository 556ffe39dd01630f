import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../common/validation/transforms';

export class FindUserDto {
  @ApiPropertyOptional({ description: 'Game UUID with hyphens. Wins over chatid, mcid and the path.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @OptionalField()
  @IsString()
  @MaxLength(64)
  uuid?: string;

  @ApiPropertyOptional({ description: 'Chat id (17-20 digits). Wins over mcid and the path.', example: '123456789012345678' })
  @OptionalField()
  @IsString()
  @MaxLength(64)
  chatid?: string;

  @ApiPropertyOptional({ description: 'Game id, case-insensitive; finds the current holder of the name. Wins over the path.', example: 'Notch' })
  @OptionalField()
  @IsString()
  @MaxLength(64)
  mcid?: string;

  /** The `{x}` of `/users/{x}` (documented as a path parameter, not a query one). */
  @OptionalField()
  @IsString()
  @MaxLength(64)
  identifier?: string;
}

export class AchievementsQueryDto {
  @ApiPropertyOptional({ description: 'Game UUID with hyphens (the path form /users/achievements/{uuid} is the same).', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @OptionalField()
  @IsString()
  @MaxLength(64)
  uuid?: string;
}
