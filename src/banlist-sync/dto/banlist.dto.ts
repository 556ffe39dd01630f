import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { UUID_PATTERN } from '../../common/identifiers';
import { ToInt } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';

export class BanlistUserDto {
  @ApiProperty({ description: 'Game UUID of the player, with hyphens (a query value wins over the path).', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.uuid'))
  uuid: string;
}

export class BanIdDto {
  @ApiProperty({ description: 'Ban id (positive integer), as the upstream ban-list service numbers bans.', example: 123456 })
  @ToInt()
  @IsInt(rule('validation.positiveInteger'))
  @Min(1, rule('validation.positiveInteger'))
  @Max(Number.MAX_SAFE_INTEGER, rule('validation.positiveInteger'))
  banId: number;
}

export class BanlistUserDoc {
  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ description: 'Reputation at the upstream (10 for a player it has no record of).', example: 10 })
  reputation: number;

  @ApiProperty({ description: 'Number of global bans.', example: 1 })
  global: number;

  @ApiProperty({ type: [Number], description: 'Ids of the global bans, ascending.', example: [123456] })
  globalIds: number[];

  @ApiProperty({ description: 'Number of local bans.', example: 0 })
  local: number;

  @ApiProperty({ type: [Number], description: 'Ids of the local bans, ascending.', example: [] })
  localIds: number[];

  @ApiProperty({ description: 'When this data was last fetched successfully from the upstream (ISO 8601, UTC).', example: '2026-11-22T03:04:05.000Z' })
  syncedAt: string;
}

export class BanDoc {
  @ApiProperty({ example: 123456 })
  banId: number;

  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ nullable: true, type: String, description: "Current game id from our login records, else the upstream's name.", example: 'Notch' })
  mcid: string | null;

  @ApiProperty({ nullable: true, type: String, description: "Name (else uuid) of who banned, as the upstream reports it." })
  bannedBy: string | null;

  @ApiProperty({ example: 'griefing' })
  reason: string;

  @ApiProperty({ nullable: true, type: String, description: 'Address of the server that banned.', example: 'play.example.net' })
  server: string | null;

  @ApiProperty({ enum: ['global', 'local'] })
  type: string;

  @ApiProperty({ nullable: true, type: Number, description: 'Reputation lost through this ban, when the upstream says.' })
  lostRep: number | null;

  @ApiProperty({ example: '2020-05-01T12:00:00.000Z' })
  bannedAt: string;

  @ApiProperty({ description: 'When a successful fetch last confirmed this ban (ISO 8601, UTC).', example: '2026-11-22T03:04:05.000Z' })
  syncedAt: string;
}

export class BanlistUserResponseDoc {
  @ApiProperty({ type: BanlistUserDoc })
  data: BanlistUserDoc;
}

export class BanResponseDoc {
  @ApiProperty({ type: BanDoc })
  data: BanDoc;
}

export class SyncSummaryDoc {
  @ApiProperty({ description: 'Players refreshed (every known player): updated + failed.', example: 120 })
  players: number;

  @ApiProperty({ description: 'Players whose fetch succeeded and whose data was stored (unchanged and clean records included).', example: 118 })
  updated: number;

  @ApiProperty({ description: 'Players whose fetch failed (timeout, 5xx, malformed body, 429 twice); their previous data is kept.', example: 2 })
  failed: number;

  @ApiProperty({ description: 'Bans lifted upstream and removed here.', example: 1 })
  removedBans: number;

  @ApiProperty({ example: '2026-11-22T03:00:00.000Z' })
  startedAt: string;

  @ApiProperty({ example: '2026-11-22T03:01:30.000Z' })
  finishedAt: string;

  @ApiProperty({
    required: false,
    description: 'Only when the run was stopped early: the upstream timed out this many times in a row (BANLIST_MAX_TIMEOUTS_IN_A_ROW); the players not fetched count as failed and keep their data.',
    example: 5,
  })
  stoppedAfterTimeouts?: number;
}

export class SyncStatusDoc {
  @ApiProperty({ type: SyncSummaryDoc, nullable: true, description: 'Summary of the last finished run on any instance; null before the first.' })
  lastRun: SyncSummaryDoc | null;

  @ApiProperty({ nullable: true, type: String, description: "This instance's next scheduled run; null when the schedule is off." })
  nextRunAt: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    example: '0 0 */6 * * *',
    description: "The cron expression (UTC, BANLIST_SYNC_CRON) this instance runs the sync on; null when the schedule is off (no BANLIST_SOURCE_URL).",
  })
  schedule: string | null;

  @ApiProperty({ description: 'True while a run (on any instance) holds the sync lease.' })
  inProgress: boolean;

  @ApiProperty({ description: 'Whether a sync can run here at all: false without an upstream (BANLIST_SOURCE_URL), when a run is refused with 503.' })
  enabled: boolean;

  @ApiProperty({ nullable: true, type: String, enum: ['no_source_url'], description: 'Why a sync cannot run: `no_source_url` (BANLIST_SOURCE_URL not set); null when enabled.' })
  offReason: 'no_source_url' | null;

  @ApiProperty({ type: [SyncSummaryDoc], description: 'The last finished runs (any instance, at most 5), newest first; empty before the first.' })
  recentRuns: SyncSummaryDoc[];
}
