import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

export class EvidenceNameDto {
  @ApiProperty({ description: "A picture's name (path): 32 hex characters and the type's extension. Any other text is an unknown name (404).", example: '3f2a9c1b7d0e4a5b8c6d9e0f1a2b3c4d.png' })
  @IsString()
  name: string;
}
