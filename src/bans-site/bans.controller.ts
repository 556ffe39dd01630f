import { POSITIVE_INT_PATTERN } from '../common/identifiers';
import { applyDecorators, Controller, Get, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AnswersIn } from '../common/http/answer-style';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput, ApiPathParam, BaseResponseDoc } from '../common/openapi/api-docs.decorators';
import { SITE_PLAYER_ID_PATTERN } from '../site-players/site-player-id';
import { BAN_SITE_KINDS, type BanPunishmentKind, type ListOptions } from './ban-kinds';
import { BansSiteService, type SiteBanDetailAnswer, type SiteBanListAnswer, type SitePlayerBans, type SitePunishmentListAnswer } from './bans-site.service';
import { BanDetailAnswerDoc, BanListAnswerDoc, BansNotFoundDoc, PlayerBansAnswerDoc, PunishmentListAnswerDoc } from './dto/bans-answers.dto';
import { BansDetailPathDto, BansListQueryDto, BansPlayerPathDto } from './dto/bans-query.dto';

export const BANS_SITE_TAG = 'bans-site';

/**
 * The answer, or for `notFound` (what is not found) HTTP 200 `status: false` as well: the site's
 * not-found branch runs only on a 2xx.
 */
function ApiBansAnswer(description: string, fields: Type<unknown>, notFound: string): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(BaseResponseDoc, fields, BansNotFoundDoc),
    ApiResponse({
      status: 200,
      description: `${description} ${notFound}: HTTP 200 \`{status: false, code: 404, version, message, message_ja}\`.`,
      schema: { oneOf: [{ allOf: [{ $ref: getSchemaPath(BaseResponseDoc) }, { $ref: getSchemaPath(fields) }] }, { $ref: getSchemaPath(BansNotFoundDoc) }] },
    }),
  );
}
const limited = ApiErrors([429, 'Over the per-address read limit, without a CAPTCHA token (X-reCAPTCHA-Token) that verifies.']);

const options = (input: BansListQueryDto): ListOptions => ({ allItems: input.all_items === true, activeOnly: input.active_only !== false });

/**
 * The bans site's routes (docs/bans-site.md): the base response, not-found as HTTP 200
 * `status: false`. The literal lists are declared before `recent/:player`, and the router prefers
 * them anyway (a player named `mcbans` is reached by uuid).
 */
@ApiTags(BANS_SITE_TAG)
@Controller('v2/bans')
export class BansController {
  constructor(private readonly bans: BansSiteService) {}

  @Get('recent/mcbans')
  @AnswersIn('base-soft-not-found', { captchaOverLimit: true })
  @ApiOperation({ summary: "The community's own global and local ban-list bans: the 15 newest in force, or as the parameters ask" })
  @ApiInput(BansListQueryDto, 'query')
  @ApiEnvelope(200, 'Counts and items per kind, newest first.', BanListAnswerDoc)
  @limited
  banList(@Input() input: BansListQueryDto): Promise<SiteBanListAnswer> {
    return this.bans.banList(options(input));
  }

  @Get('recent/vban')
  @AnswersIn('base-soft-not-found', { captchaOverLimit: true })
  @ApiOperation({ summary: 'Game bans: the 15 newest in force, or as the parameters ask' })
  @ApiInput(BansListQueryDto, 'query')
  @ApiEnvelope(200, 'The count and the items, newest first.', PunishmentListAnswerDoc)
  @limited
  vbans(@Input() input: BansListQueryDto): Promise<SitePunishmentListAnswer> {
    return this.punishments('vban', input);
  }

  @Get('recent/eban')
  @AnswersIn('base-soft-not-found', { captchaOverLimit: true })
  @ApiOperation({ summary: 'Area confinements: the 15 newest in force, or as the parameters ask' })
  @ApiInput(BansListQueryDto, 'query')
  @ApiEnvelope(200, 'The count and the items, newest first.', PunishmentListAnswerDoc)
  @limited
  ebans(@Input() input: BansListQueryDto): Promise<SitePunishmentListAnswer> {
    return this.punishments('eban', input);
  }

  @Get('recent/chatban')
  @AnswersIn('base-soft-not-found', { captchaOverLimit: true })
  @ApiOperation({ summary: 'Mutes: the 15 newest in force, or as the parameters ask' })
  @ApiInput(BansListQueryDto, 'query')
  @ApiEnvelope(200, 'The count and the items, newest first.', PunishmentListAnswerDoc)
  @limited
  chatbans(@Input() input: BansListQueryDto): Promise<SitePunishmentListAnswer> {
    return this.punishments('chatban', input);
  }

  @Get('recent/:player')
  @AnswersIn('base-soft-not-found', { captchaOverLimit: true })
  @ApiOperation({ summary: "Every record of one player, all five kinds, every state" })
  @ApiPathParam('player', { type: 'string', pattern: SITE_PLAYER_ID_PATTERN.source }, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiBansAnswer('`data` with the five arrays, newest first.', PlayerBansAnswerDoc, 'An unknown player')
  @limited
  player(@Input() input: BansPlayerPathDto): Promise<{ data: SitePlayerBans }> {
    return this.bans.playerBans(input.player);
  }

  @Get('details/:kind/:id')
  @AnswersIn('base-soft-not-found', { captchaOverLimit: true })
  @ApiOperation({ summary: "One record's details and the names of its evidence pictures" })
  // Documented as the records that exist; any other text is answered as an unknown record, not a 400.
  @ApiPathParam('kind', { type: 'string', enum: [...BAN_SITE_KINDS] }, 'gban, lban, vban, eban or chatban.')
  @ApiPathParam('id', { type: 'string', pattern: POSITIVE_INT_PATTERN.source }, 'The ban id (gban, lban) or the punishment id.')
  @ApiBansAnswer('The record (its fields depend on the kind) and `proofs`.', BanDetailAnswerDoc, 'An unknown kind or record, or an id that is no record id')
  @limited
  details(@Input() input: BansDetailPathDto): Promise<SiteBanDetailAnswer> {
    return this.bans.details(input.kind, input.id);
  }

  private punishments(kind: BanPunishmentKind, input: BansListQueryDto): Promise<SitePunishmentListAnswer> {
    return this.bans.punishmentList(kind, options(input));
  }
}
