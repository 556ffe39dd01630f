import { ApiProperty, ApiPropertyOptional, OmitType, PickType } from '@nestjs/swagger';
import { IsString, Length, Matches, MaxLength } from 'class-validator';
import { OptionalField } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';

const USERNAME = /^([A-Za-z0-9_]{1,16}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

export class SignInDto {
  @ApiProperty({ description: 'Game id or game UUID (with hyphens).', example: 'Notch' })
  @IsString()
  @Matches(USERNAME, rule('validation.username'))
  username: string;

  @ApiProperty({ description: 'Account password.', format: 'password' })
  @IsString()
  @Length(1, 1024)
  password: string;

  @ApiProperty({ description: 'CAPTCHA verification token from the CAPTCHA widget.' })
  @IsString()
  @Length(1, 4096)
  recaptcha: string;
}

export class RegisterDto {
  @ApiPropertyOptional({ description: 'User key from the in-game command /getuserkey (10 letters). Required unless verificationCode is given.' })
  @OptionalField()
  @IsString()
  @MaxLength(64)
  userkey?: string;

  @ApiPropertyOptional({ description: 'Alias of userkey, as the existing club site sends it.' })
  @OptionalField()
  @IsString()
  @MaxLength(64)
  verificationCode?: string;

  @ApiProperty({ description: 'Password, 8 to 128 characters.', format: 'password', minLength: 8, maxLength: 128 })
  @IsString()
  @Length(8, 128)
  password: string;

  @ApiProperty({ description: 'CAPTCHA verification token.' })
  @IsString()
  @Length(1, 4096)
  recaptcha: string;

  @ApiPropertyOptional({ description: 'Game id or UUID of the player; when given it must be the user key\'s player.' })
  @OptionalField()
  @IsString()
  @Matches(USERNAME, rule('validation.username'))
  username?: string;
}

export class NicknameDto {
  @ApiProperty({ description: 'New nickname: 1 to 32 characters after trimming.', example: 'Builder Taro' })
  @IsString()
  @MaxLength(512)
  nickname: string;

  @ApiProperty({ description: 'CAPTCHA verification token.' })
  @IsString()
  @Length(1, 4096)
  recaptcha: string;
}

/** Password reset: a new in-game user key (or its alias) and the new password, as for register. */
export class PasswordResetDto extends OmitType(RegisterDto, ['username'] as const) {}

export class PasswordChangeDto {
  @ApiProperty({ description: 'The current password.', format: 'password' })
  @IsString()
  @Length(1, 1024)
  password: string;

  @ApiProperty({ description: 'The new password, 8 to 128 characters.', format: 'password', minLength: 8, maxLength: 128 })
  @IsString()
  @Length(8, 128)
  newPassword: string;

  @ApiProperty({ description: 'CAPTCHA verification token.' })
  @IsString()
  @Length(1, 4096)
  recaptcha: string;
}

/** Account deletion: the current password confirms it. */
export class AccountDeleteDto extends PickType(PasswordChangeDto, ['password', 'recaptcha'] as const) {}

export class TokenResponseDoc {
  @ApiProperty({ description: 'Club user token (32 alphanumeric characters), valid 3 hours; supersedes older tokens.', example: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6' })
  usertoken: string;

  @ApiProperty({ description: 'When the token expires (ISO 8601, UTC).', example: '2026-11-22T06:04:05.000Z' })
  expiresAt: string;
}

export class NicknameResponseDoc {
  @ApiProperty({ description: 'The stored nickname after trimming.', example: 'Builder Taro' })
  nickname: string;
}

export class ClubAccountDoc {
  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ nullable: true, type: String, example: 'Notch' })
  mcid: string | null;

  @ApiProperty({ nullable: true, type: String, example: '123456789012345678' })
  chatid: string | null;

  @ApiProperty({ nullable: true, type: String })
  nickname: string | null;

  @ApiProperty({ enum: ['default', 'admin'] })
  clubgroup: string;

  @ApiProperty({ nullable: true, type: String })
  permission: string | null;

  @ApiProperty({ example: '2026-11-22T03:04:05.000Z' })
  createdAt: string;
}

export class AccountResponseDoc {
  @ApiProperty({ type: ClubAccountDoc })
  data: ClubAccountDoc;
}
