import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AnswersIn } from '../common/http/answer-style';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiPathParam } from '../common/openapi/api-docs.decorators';
import { SiteBanIdDto, SiteV1PlayerPathDto } from './dto/site-query.dto';
import { type SiteAchievement, type SiteBanlistBan, type SiteBanlistRecord, SiteBrandedService, type SitePeriodMatchResult } from './site-branded.service';
import { PLAYERS_SITE_TAG, SITE_PLAYER_ID_SCHEMA } from './site-users.controller';
import { POSITIVE_INT_PATTERN } from '../common/identifiers';

class SiteAchievementDoc {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'First city' })
  title: string;

  @ApiProperty({ example: 'Found your first city.' })
  description: string;

  @ApiProperty({ description: "When it was unlocked, wall clock in the community's time zone.", example: '2026-11-22 12:04:05' })
  date: string;
}

class SiteAchievementsDoc {
  @ApiProperty({ type: [SiteAchievementDoc], description: 'Unlocked achievements, oldest first; hidden ones appear once unlocked.' })
  data: SiteAchievement[];

  @ApiProperty({ description: 'How many the player unlocked.', example: 1 })
  getted: number;

  @ApiProperty({ description: 'How many achievements are defined.', example: 40 })
  all: number;
}

class SiteBanlistRecordDoc {
  @ApiProperty({ example: 10 })
  reputation: number;

  @ApiProperty({ example: 0 })
  global: number;

  @ApiProperty({ example: 1 })
  local: number;

  @ApiProperty({ type: [Number], example: [] })
  global_ids: number[];

  @ApiProperty({ type: [Number], example: [123456] })
  local_ids: number[];

  @ApiProperty({ description: "Last fetched from the upstream, wall clock in the community's time zone.", example: '2026-11-22 12:04:05' })
  updated_at: string;
}

class SiteBanlistRecordResponseDoc {
  @ApiProperty({ type: SiteBanlistRecordDoc })
  data: SiteBanlistRecord;
}

class SiteBanlistBanDoc {
  @ApiProperty({ type: String, nullable: true, example: 'play.example.org' })
  server: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Notch' })
  banned_by: string | null;

  @ApiProperty({ example: 'griefing' })
  reason: string;

  @ApiProperty({ description: "Wall clock in the community's time zone.", example: '2026-11-22 12:04:05' })
  date: string;
}

class SiteBanlistBanResponseDoc {
  @ApiProperty({ type: SiteBanlistBanDoc })
  data: SiteBanlistBan;
}

class SitePeriodMatchDoc {
  @ApiProperty({ example: 3 })
  id: number;

  @ApiProperty({ description: 'The game id at the time.', example: 'Notch' })
  mcid: string;

  @ApiProperty({ example: 12 })
  success: number;

  @ApiProperty({ example: 3 })
  failure: number;

  @ApiProperty({ description: 'The category, in seconds.', example: 60 })
  match_time: number;

  @ApiProperty({ example: 61 })
  real_match_time: number;

  @ApiProperty({ description: 'Milliseconds.', example: 60012 })
  calc_match_time: number;

  @ApiProperty({ description: 'True for a recorded result.', example: true })
  status: boolean;

  @ApiProperty({ description: 'Place within the category (ties share a place).', example: 2 })
  rank: number;

  @ApiProperty({ example: '2026-11-22 12:03:04' })
  start_time: string;

  @ApiProperty({ example: '2026-11-22 12:04:05' })
  end_time: string;

  @ApiProperty({ description: 'The end time.', example: '2026-11-22 12:04:05' })
  created_at: string;
}

class SitePeriodMatchResponseDoc {
  @ApiProperty({ type: [SitePeriodMatchDoc], description: 'The 50 latest results, newest first; [] when none.' })
  data: SitePeriodMatchResult[];
}

const errorText = 'Errors carry `error` = the message text (not the code), for the players site.';

/**
 * The original's branded paths of achievements and the ban-list mirror (docs/players-site.md),
 * in the base response; also served under `/v1`, like every route.
 */
@ApiTags(PLAYERS_SITE_TAG)
@Controller('users')
export class SiteBrandedController {
  constructor(private readonly branded: SiteBrandedService) {}

  @Get('jsa/:id')
  @AnswersIn('base-error-text', { captchaOverLimit: true })
  @ApiOperation({ summary: "A player's unlocked achievements, as the players site reads them", description: errorText })
  @ApiPathParam('id', SITE_PLAYER_ID_SCHEMA, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiEnvelope(200, 'The achievements.', SiteAchievementsDoc)
  @ApiErrors([404, 'Unknown player.'])
  achievements(@Input() input: SiteV1PlayerPathDto): Promise<{ data: SiteAchievement[]; getted: number; all: number }> {
    return this.branded.achievementsOf(input.id);
  }

  @Get('pm_recently/:id')
  @AnswersIn('base-error-text', { captchaOverLimit: true })
  @ApiOperation({ summary: "A player's latest results of the timing mini-game, as the players site reads them", description: errorText })
  @ApiPathParam('id', SITE_PLAYER_ID_SCHEMA, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiEnvelope(200, 'The results.', SitePeriodMatchResponseDoc)
  @ApiErrors([404, 'Unknown player.'])
  async periodMatch(@Input() input: SiteV1PlayerPathDto): Promise<{ data: SitePeriodMatchResult[] }> {
    return { data: await this.branded.periodMatchOf(input.id) };
  }

  @Get('mcbans/ban/:id')
  @AnswersIn('base-error-text', { captchaOverLimit: true })
  @ApiOperation({ summary: 'A ban record of the ban-list mirror, as the players site reads it', description: errorText })
  @ApiPathParam('id', { type: 'string', pattern: POSITIVE_INT_PATTERN.source }, 'Ban id.')
  @ApiEnvelope(200, 'The ban.', SiteBanlistBanResponseDoc)
  @ApiErrors([400, 'Not a ban id.'], [404, 'No such ban in the mirror.'])
  async banlistBan(@Input() input: SiteBanIdDto): Promise<{ data: SiteBanlistBan }> {
    return { data: await this.branded.banlistBan(input.id) };
  }

  @Get('mcbans/:id')
  @AnswersIn('base-error-text', { captchaOverLimit: true })
  @ApiOperation({ summary: "A player's ban-list record, as the players site reads it", description: `${errorText} 404 when the mirror has no record (the site then shows a clean record).` })
  @ApiPathParam('id', SITE_PLAYER_ID_SCHEMA, 'Game id (any case), uuid with or without hyphens, or chat id.')
  @ApiEnvelope(200, 'The record.', SiteBanlistRecordResponseDoc)
  @ApiErrors([404, 'Unknown player, or no record in the mirror.'])
  async banlistRecord(@Input() input: SiteV1PlayerPathDto): Promise<{ data: SiteBanlistRecord }> {
    return { data: await this.branded.banlistRecordOf(input.id) };
  }
}
