import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches, ValidateBy } from 'class-validator';
import { CHATID_PATTERN, UUID_PATTERN } from '../../common/identifiers';
import { ListOf, MAX_BATCH } from '../../common/validation/lists';
import { FromJsonString, OptionalField } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';
import { IsTimestamp } from '../../users/dto/timestamp.decorators';
import { CHAT_NAME_MAX, DISCRIMINATOR_PATTERN, GITHUB_LOGIN_PATTERN, isWebUrl, TWITTER_ID_PATTERN, URL_MAX } from '../profile-fields';
import { IsSenderId } from '../../common/validation/sender-id';

const chatidRule = Matches(CHATID_PATTERN, rule('validation.chatid'));

/** An absolute http(s) URL of at most 512 characters. */
export const IsWebUrl = (): PropertyDecorator =>
  ValidateBy({ name: 'webUrl', validator: { validate: (value: unknown) => typeof value === 'string' && isWebUrl(value) } }, { message: 'validation.webUrl' });

/** The sender's own id of an item: re-sending it stores nothing new. */
const SourceId = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ description: "The sender's own id of this record: 1-64 printable ASCII characters, no spaces. A record whose id was stored before is skipped.", example: 'msg-1180000000000000001' }),
    IsString(),
    IsSenderId(),
  );

export class ChatAccountItemDto {
  @SourceId()
  id: string;

  @ApiProperty({ description: 'Chat id (17-20 digits).', example: '123456789012345678' })
  @IsString()
  @chatidRule
  chatid: string;

  @ApiProperty({ description: `The account's name as the chat platform shows it, 1-${CHAT_NAME_MAX} characters.`, example: 'taro' })
  @IsString()
  @Length(1, CHAT_NAME_MAX)
  name: string;

  @ApiPropertyOptional({ description: 'Discriminator: up to 4 digits; absent or "0" for none (accounts since 2023 have none).', example: '0' })
  @OptionalField()
  @IsString()
  @Matches(DISCRIMINATOR_PATTERN, rule('validation.discriminator'))
  discriminator?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: "Avatar URL (http or https, at most 512 characters); absent or null: the account has none, and the platform's default avatar is served.", example: 'https://cdn.discordapp.com/avatars/123456789012345678/abc.png' })
  @IsOptional()
  @IsString()
  @IsWebUrl()
  avatarUrl?: string | null;

  @ApiProperty({ description: 'When the bot saw the account so, ISO 8601 with a zone. A report older than the stored one changes nothing.', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  reportedAt: Date;
}

export class ChatAccountBatchDto {
  @ApiProperty({ type: [ChatAccountItemDto], description: `1 to ${MAX_BATCH} chat account reports; all stored or none.` })
  @FromJsonString()
  @ListOf(() => ChatAccountItemDto, { min: 1, max: MAX_BATCH })
  accounts: ChatAccountItemDto[];
}

export class SecondAccountItemDto {
  @SourceId()
  id: string;

  @ApiProperty({ description: 'Chat id of the second account (17-20 digits).', example: '223456789012345678' })
  @IsString()
  @chatidRule
  chatid: string;

  @ApiProperty({ description: 'Chat id of the main account it belongs to (the one linked to the player).', example: '123456789012345678' })
  @IsString()
  @chatidRule
  mainChatid: string;

  @ApiProperty({ description: 'When it was registered, ISO 8601 with a zone. The newest registration is the one shown.', example: '2026-11-22T03:04:05.000Z' })
  @IsTimestamp()
  registeredAt: Date;
}

export class SecondAccountBatchDto {
  @ApiProperty({ type: [SecondAccountItemDto], description: `1 to ${MAX_BATCH} second accounts; all stored or none.` })
  @FromJsonString()
  @ListOf(() => SecondAccountItemDto, { min: 1, max: MAX_BATCH })
  secondAccounts: SecondAccountItemDto[];
}

/** The three links; each absent (unchanged), null (removed) or a value. */
export class ProfileLinksFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Twitter id as the player gives it (1-64 characters, no spaces); null removes it, absent keeps it.', example: 'jaoafa' })
  @IsOptional()
  @IsString()
  @Matches(TWITTER_ID_PATTERN, rule('validation.twitterId'))
  twitterId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'GitHub login (letters, digits, inner hyphens; at most 39); null removes it, absent keeps it.', example: 'octocat' })
  @IsOptional()
  @IsString()
  @Matches(GITHUB_LOGIN_PATTERN, rule('validation.githubId'))
  githubId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `Home page, an http or https URL of at most ${URL_MAX} characters; null removes it, absent keeps it.`, example: 'https://example.com/' })
  @IsOptional()
  @IsString()
  @IsWebUrl()
  homeUrl?: string | null;
}

export class ProfileLinksItemDto extends ProfileLinksFieldsDto {
  @SourceId()
  id: string;

  @ApiProperty({ description: 'Game UUID with hyphens; a player not seen yet is recorded by uuid.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;
}

export class ProfileLinksBatchDto {
  @ApiProperty({ type: [ProfileLinksItemDto], description: `1 to ${MAX_BATCH} changes of players' links, applied in order; all stored or none.` })
  @FromJsonString()
  @ListOf(() => ProfileLinksItemDto, { min: 1, max: MAX_BATCH })
  links: ProfileLinksItemDto[];
}

export class ChatIngestResultDoc {
  @ApiProperty({ description: 'Records stored by this request.', example: 2 })
  accepted: number;

  @ApiProperty({ description: 'Records skipped: their id was stored before (or earlier in the batch).', example: 0 })
  skipped: number;
}

export class ProfileLinksDoc {
  @ApiProperty({ type: String, nullable: true, example: 'jaoafa' })
  twitterId: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'octocat' })
  githubId: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://example.com/' })
  homeUrl: string | null;
}

export class ProfileLinksResponseDoc {
  @ApiProperty({ type: ProfileLinksDoc })
  data: ProfileLinksDoc;
}
