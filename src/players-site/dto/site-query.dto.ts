import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../common/validation/transforms';

const recaptchaDoc = {
  description: "The site's CAPTCHA token. Not required: it only lets a request through once the address is over the read limit.",
};

/** A path naming a player: a game id, a uuid (with or without hyphens) or a chat id. */
export class SitePlayerPathDto {
  @ApiProperty({ description: 'Game id (any case), uuid with or without hyphens, or chat id.', example: 'Notch' })
  @IsString()
  id: string;

  @ApiPropertyOptional(recaptchaDoc)
  @OptionalField()
  @IsString()
  recaptcha?: string;
}

/** The same, for the `/v1` branded routes (their token parameter is `user_recaptcha`). */
export class SiteV1PlayerPathDto {
  @ApiProperty({ description: 'Game id (any case), uuid with or without hyphens, or chat id.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  id: string;

  @ApiPropertyOptional(recaptchaDoc)
  @OptionalField()
  @IsString()
  user_recaptcha?: string;
}

export class SiteBanIdDto {
  @ApiProperty({ description: 'Ban id in the ban-list mirror.', example: 12345 })
  @IsString()
  @MaxLength(16)
  id: string;

  @ApiPropertyOptional(recaptchaDoc)
  @OptionalField()
  @IsString()
  user_recaptcha?: string;
}

export class PrefixQueryDto {
  @ApiPropertyOptional({ description: 'The start of a game id, any case; empty or absent answers [].', example: 'No' })
  @OptionalField()
  @IsString()
  mcid?: string;

  @ApiPropertyOptional(recaptchaDoc)
  @OptionalField()
  @IsString()
  recaptcha?: string;
}

export class RecentLoginQueryDto {
  @ApiPropertyOptional({ description: "A player (game id, uuid or chat id): that player's latest logins. Absent: the players seen last.", example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @OptionalField()
  @IsString()
  uuid?: string;

  @ApiPropertyOptional(recaptchaDoc)
  @OptionalField()
  @IsString()
  recaptcha?: string;
}

export class DailyOnlineQueryDto {
  @ApiProperty({ description: 'The player (game id, uuid or chat id).', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  uuid: string;

  @ApiPropertyOptional(recaptchaDoc)
  @OptionalField()
  @IsString()
  recaptcha?: string;
}
