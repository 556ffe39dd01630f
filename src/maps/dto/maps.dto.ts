import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { POSITIVE_INT_PATTERN } from '../../common/identifiers';
import { rule } from '../../common/validation/validation.pipe';

export class CitiesSvgDto {
  @ApiProperty({
    required: false,
    description: 'The box to draw, x1,z1,x2,z2 in blocks (any two opposite corners; at most 100,000 blocks on a side). Default: every city.',
    example: '-500,-500,500,500',
  })
  @IsOptional()
  @IsString()
  bbox?: string;
}

export class CityShapeDto {
  @ApiProperty({ description: 'City id (path).', example: 12 })
  @Matches(POSITIVE_INT_PATTERN, rule('validation.positiveInteger'))
  id: string;
}
