import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiProperty, ApiResponse, ApiTags, getSchemaPath, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';
import { AnswersIn } from '../common/http/answer-style';
import { Input } from '../common/http/input.decorator';
import { ApiInput, ApiPathParam } from '../common/openapi/api-docs.decorators';
import { PrefixQueryDto, RecentLoginQueryDto, SitePlayerPathDto } from './dto/site-query.dto';
import { SITE_PLAYER_ID_PATTERN } from './site-player-id';
import { type PlayerLogin, type RecentPlayerLogin, SiteLoginsService } from './site-logins.service';
import { SiteProfileService, type SitePlayerName, type SitePunishments } from './site-profile.service';

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
