import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';
import { AnswersIn } from '../common/http/answer-style';
import { Input } from '../common/http/input.decorator';
import { ApiInput, ApiPathParam } from '../common/openapi/api-docs.decorators';
import { DailyOnlineDoc, PlayerLoginDoc, PlayerNameDoc, RecentPlayerLoginDoc, SiteChatAccountsDoc, SiteErrorDoc, SiteInfoDoc, SiteProfileDoc, SitePunishmentsDoc } from './dto/site-answers.dto';
import { DailyOnlineQueryDto, PrefixQueryDto, RecentLoginQueryDto, SitePlayerPathDto } from './dto/site-query.dto';
import { SITE_PLAYER_ID_PATTERN } from '../site-players/site-player-id';
import { type PlayerLogin, type RecentPlayerLogin, SiteLoginsService } from './site-logins.service';
import { type SiteInfo, SitePlayService } from './site-play.service';
import { type SiteChatAccount, type SitePlayerName, type SiteProfile, SiteProfileService, type SitePunishments } from './site-profile.service';

export const PLAYERS_SITE_TAG = 'players-site';

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
