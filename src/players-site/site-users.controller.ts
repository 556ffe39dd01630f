import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiProperty, ApiResponse, ApiTags, getSchemaPath, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';
import { AnswersIn } from '../common/http/answer-style';
import { Input } from '../common/http/input.decorator';
import { ApiInput, ApiPathParam } from '../common/openapi/api-docs.decorators';
import { DailyOnlineQueryDto, PrefixQueryDto, RecentLoginQueryDto, SitePlayerPathDto } from './dto/site-query.dto';
import { SITE_PLAYER_ID_PATTERN } from './site-player-id';
import { type PlayerLogin, type RecentPlayerLogin, SiteLoginsService } from './site-logins.service';
import { type SiteInfo, SitePlayService } from './site-play.service';
import { type SiteChatAccount, type SitePlayerName, type SiteProfile, SiteProfileService, type SitePunishments } from './site-profile.service';

export const PLAYERS_SITE_TAG = 'players-site';

class SiteErrorDoc {
  @ApiProperty({ description: 'What went wrong, in plain words (HTML-escaped). An unknown player is exactly "User not found."', example: 'User not found.' })
  error: string;
}

class PlayerNameDoc {
  @ApiProperty({ description: 'Latest game id.', example: 'Notch' })
  mcid: string;

  @ApiProperty({ description: 'Game UUID with hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;
}

class RecentPlayerLoginDoc extends PlayerNameDoc {
  @ApiProperty({ description: 'Id of the login record (unique in the list).', example: 812 })
  id: number;

  @ApiProperty({ description: "Time of the login, wall clock in the community's time zone.", example: '2026-11-22 12:04:05' })
  date: string;
}

class PlayerLoginDoc {
  @ApiProperty({ example: 812 })
  id: number;

  @ApiProperty({ description: 'The game id used at that login.', example: 'Notch' })
  mcid: string;

  @ApiProperty({ description: "Wall clock in the community's time zone.", example: '2026-11-22 12:04:05' })
  date: string;
}

class PunishmentCountsDoc {
  @ApiProperty({ example: 1 })
  jail: number;

  @ApiProperty({ example: 0 })
  chatjail: number;

  @ApiProperty({ example: 0 })
  eban: number;

  @ApiProperty({ example: 0 })
  vban: number;
}

class SitePunishmentDoc {
  @ApiProperty({ enum: ['Jail', 'ChatJail', 'EBan', 'VBan'], example: 'Jail' })
  type: string;

  @ApiProperty({ description: "The service's id of the punishment.", example: 17 })
  id: number;

  @ApiProperty({ description: 'The game id at the time.', example: 'Notch' })
  mcid: string;

  @ApiProperty({ example: 'griefing' })
  reason: string;

  @ApiProperty({ type: String, nullable: true, description: "The jailed player's last words (Jail only).", example: null })
  testment: string | null;

  @ApiProperty({ description: 'True while in force.', example: true })
  status: boolean;

  @ApiProperty({ description: "The issuer's game id, CONSOLE, or the automatic moderator's name.", example: 'Moderator1' })
  bannedBy: string;

  @ApiProperty({ description: "When it was issued, wall clock in the community's time zone.", example: '2026-11-22 12:04:05' })
  date: string;
}

class SitePunishmentsDoc {
  @ApiProperty({ type: PunishmentCountsDoc })
  count: PunishmentCountsDoc;

  @ApiProperty({ type: [SitePunishmentDoc], description: 'Every punishment, newest first.' })
  items: SitePunishmentDoc[];
}

class DailyOnlineDoc {
  @ApiProperty({ description: "The day, in the community's time zone.", example: '2026-11-22' })
  date: string;

  @ApiProperty({ description: 'Seconds played that day (a session across midnight is split; at most 86400).', example: 5400 })
  count: number;
}

class SiteInfoDoc {
  @ApiProperty({ description: "The player's permission group, lower case; default when unknown.", example: 'verified' })
  group: string;

  @ApiProperty({ type: String, nullable: true, description: 'When that group was last reported (wall clock).', example: '2026-11-22 12:04:05' })
  groupWhen: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'When a temporary group ends (wall clock), else null.', example: null })
  groupExpireAt: string | null;

  @ApiProperty({
    description: 'Play time per era of PLAYER_ERAS as X日Y時間Z分W秒 (null: no data in that era), and jaototal, the sum (never null).',
    example: { kassi: null, jao1: null, jao2: null, jao3: null, jao4: '3日4時間0分5秒', jaototal: '3日4時間0分5秒' },
    type: 'object',
    additionalProperties: { type: 'string', nullable: true },
  })
  totalTime: Record<string, string | null>;

  @ApiProperty({ description: 'Seconds away from keyboard in total.', example: 3600 })
  afkTime: number;

  @ApiProperty({ description: 'The same as X日Y時間Z分W秒.', example: '1時間0分0秒' })
  afkTimeFormatted: string;

  @ApiProperty({ description: 'Votes on the first vote site (VOTE_SITES).', example: 12 })
  mcjpVoteCount: number;

  @ApiProperty({ description: '1 + the players with more votes there (ties share).', example: 40 })
  mcjpVoteRank: number;

  @ApiProperty({ description: 'Votes on the second vote site.', example: 3 })
  monoVoteCount: number;

  @ApiProperty({ example: 120 })
  monoVoteRank: number;
}

class SocialsDoc {
  @ApiProperty({ type: String, nullable: true, example: 'notch' })
  twitterId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The linked chat id.', example: '123456789012345678' })
  discordId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'A GitHub login.', example: 'notch' })
  githubId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'An http(s) URL.', example: 'https://example.org/' })
  homeUrl: string | null;
}

class SiteProfileDoc {
  @ApiProperty({ type: String, nullable: true, description: 'The join-message title from votes on the first vote site and the login text; null below 20 votes without a login text.', example: 'VIP' })
  rankText: string | null;

  @ApiProperty({ description: 'The chat-colour rank (0-13) from votes on the second vote site.', example: 1 })
  rank: number;

  @ApiProperty({ description: 'Latest game id.', example: 'Notch' })
  username: string;

  @ApiProperty({ description: 'The player has a linked chat account.', example: true })
  isVerified: boolean;

  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ type: String, nullable: true, description: 'First login (wall clock); null for a player known only from a record.', example: '2018-03-20 10:00:00' })
  firstLogin: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'How long ago, as years, months and days (the site appends 前).', example: '8年8か月7日' })
  firstHowManyAgo: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Latest login (wall clock; the original spelled it so).', example: '2026-11-22 12:04:05' })
  leastLogin: string | null;

  @ApiProperty({ type: String, nullable: true, example: '5日' })
  leastHowManyAgo: string | null;

  @ApiProperty({ type: SocialsDoc })
  socials: SocialsDoc;
}

class SiteChatAccountDoc {
  @ApiProperty({ description: 'Chat id.', example: '123456789012345678' })
  id: string;

  @ApiProperty({ example: 'notch' })
  name: string;

  @ApiProperty({ description: '"0" where the platform has none.', example: '0' })
  discriminator: string;

  @ApiProperty({ description: "Avatar URL as last reported; the platform's default until one is.", example: 'https://cdn.discordapp.com/embed/avatars/0.png' })
  imgurl: string;
}

class SiteChatAccountsDoc {
  @ApiProperty({ type: SiteChatAccountDoc, nullable: true })
  mainAccount: SiteChatAccountDoc | null;

  @ApiProperty({ type: SiteChatAccountDoc, nullable: true, description: 'The latest second account of the same person.' })
  subAccount: SiteChatAccountDoc | null;
}

/** A bare answer: the payload, or `{"error": …}` with the same HTTP 200 (the site looks for the key). */
function ApiBareAnswer(description: string, ...payloads: Array<SchemaObject | ReferenceObject>): MethodDecorator {
  return ApiResponse({
    status: 200,
    description: `${description} An unknown player or bad input: \`{"error": "User not found."}\` (or another plain sentence), also with HTTP 200.`,
    schema: { oneOf: [...payloads, { $ref: getSchemaPath(SiteErrorDoc) }] },
  });
}

const ref = (model: new () => unknown): ReferenceObject => ({ $ref: getSchemaPath(model) });
const listOf = (model: new () => unknown): SchemaObject => ({ type: 'array', items: ref(model) });

/** The path's player id, documented by its forms; a text of none of them is an unknown player, not a 400. */
export const SITE_PLAYER_ID_SCHEMA: SchemaObject = { type: 'string', pattern: SITE_PLAYER_ID_PATTERN.source };

const limited = ApiResponse({ status: 429, description: 'Over the per-address read limit, without a CAPTCHA token that verifies.' });

/**
 * The players site's routes (docs/players-site.md): bare answers, errors as HTTP 200 `{error}`.
 * Literal routes are declared before `:id`, and the router prefers them anyway.
 */
@ApiTags(PLAYERS_SITE_TAG)
@ApiExtraModels(SiteErrorDoc)
@Controller('v2/users')
export class SiteUsersController {
  constructor(
    private readonly logins: SiteLoginsService,
    private readonly profiles: SiteProfileService,
    private readonly play: SitePlayService,
  ) {}

  @Get('search/prefix')
  @AnswersIn('bare', { captchaOverLimit: true })
  @ApiOperation({ summary: 'Current game ids starting with a prefix (at most 20, most recently seen first)' })
  @ApiInput(PrefixQueryDto, 'query')
  @ApiBareAnswer('The names (an empty prefix: []).', { type: 'array', items: { type: 'string' }, example: ['Notch', 'Notchy'] })
  @limited
  prefix(@Input() input: PrefixQueryDto): Promise<string[]> {
    return this.logins.namesStartingWith(input.mcid);
  }

  @Get('recentLogin')
  @AnswersIn('bare', { captchaOverLimit: true })
  @ApiOperation({ summary: "The 50 players seen last (their latest login each), or one player's 100 latest logins" })
  @ApiInput(RecentLoginQueryDto, 'query')
  @ApiBareAnswer('Newest first. Without uuid: `[{id, mcid, uuid, date}]`; with uuid: `[{id, mcid, date}]`.', listOf(RecentPlayerLoginDoc), listOf(PlayerLoginDoc))
  @ApiExtraModels(RecentPlayerLoginDoc, PlayerLoginDoc)
  @limited
  recentLogin(@Input() input: RecentLoginQueryDto): Promise<RecentPlayerLogin[] | PlayerLogin[]> {
    return input.uuid === undefined ? this.logins.recentPlayers() : this.logins.recentOf(input.uuid);
  }

  @Get('daily-online')
  @AnswersIn('bare', { captchaOverLimit: true })
  @ApiOperation({ summary: 'Seconds played per day over the last 366 days (the heatmap)' })
  @ApiInput(DailyOnlineQueryDto, 'query')
  @ApiBareAnswer('One entry per day with play, oldest first.', listOf(DailyOnlineDoc))
  @ApiExtraModels(DailyOnlineDoc)
  @limited
  dailyOnline(@Input() input: DailyOnlineQueryDto): Promise<Array<{ date: string; count: number }>> {
    return this.play.dailyOnline(input.uuid);
  }

  @Get('data/:id')
  @AnswersIn('bare', { captchaOverLimit: true })
  @ApiOperation({ summary: 'Who a player is: name, vote rewards, first and latest login, profile links' })
  @ApiPathParam('id', SITE_PLAYER_ID_SCHEMA, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiBareAnswer('The profile.', ref(SiteProfileDoc))
  @ApiExtraModels(SiteProfileDoc)
  @limited
  profile(@Input() input: SitePlayerPathDto): Promise<SiteProfile> {
    return this.profiles.profile(input.id);
  }

  @Get('discord/:id')
  @AnswersIn('bare', { captchaOverLimit: true })
  @ApiOperation({ summary: "A player's chat account and second account" })
  @ApiPathParam('id', SITE_PLAYER_ID_SCHEMA, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiBareAnswer('The accounts.', ref(SiteChatAccountsDoc))
  @ApiExtraModels(SiteChatAccountsDoc)
  @limited
  chatAccounts(@Input() input: SitePlayerPathDto): Promise<{ mainAccount: SiteChatAccount | null; subAccount: SiteChatAccount | null }> {
    return this.profiles.chatAccountsOf(input.id);
  }

  @Get('info/:id')
  @AnswersIn('bare', { captchaOverLimit: true })
  @ApiOperation({ summary: "A player's group, play time per era, away time and votes" })
  @ApiPathParam('id', SITE_PLAYER_ID_SCHEMA, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiBareAnswer('The figures.', ref(SiteInfoDoc))
  @ApiExtraModels(SiteInfoDoc)
  @limited
  info(@Input() input: SitePlayerPathDto): Promise<SiteInfo> {
    return this.play.info(input.id);
  }

  @Get('punishment/:id')
  @AnswersIn('bare', { captchaOverLimit: true })
  @ApiOperation({ summary: "A player's punishments of the four kinds, with counts" })
  @ApiPathParam('id', SITE_PLAYER_ID_SCHEMA, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiBareAnswer('The punishments.', ref(SitePunishmentsDoc))
  @ApiExtraModels(SitePunishmentsDoc)
  @limited
  punishments(@Input() input: SitePlayerPathDto): Promise<SitePunishments> {
    return this.profiles.punishmentsOf(input.id);
  }

  @Get(':id')
  @AnswersIn('bare', { captchaOverLimit: true })
  @ApiOperation({ summary: 'Who a player is: latest game id and uuid' })
  @ApiPathParam('id', SITE_PLAYER_ID_SCHEMA, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiBareAnswer('The player.', ref(PlayerNameDoc))
  @ApiExtraModels(PlayerNameDoc)
  @limited
  player(@Input() input: SitePlayerPathDto): Promise<SitePlayerName> {
    return this.profiles.name(input.id);
  }
}
