import { ApiProperty } from '@nestjs/swagger';
import { CITY_STATES } from '../../cities/city.entity';
import { HISTORY_ACTIONS } from '../record-history.entity';
import { RECORD_KINDS } from '../../evidence/record-ref';

const UUID_EXAMPLE = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const TIME_EXAMPLE = '2026-11-22T03:04:05.000Z';

export class PlayerMatchDoc {
  @ApiProperty({ example: UUID_EXAMPLE })
  uuid: string;

  @ApiProperty({ nullable: true, type: String, example: 'Notch' })
  mcid: string | null;

  @ApiProperty({ nullable: true, type: String, example: null })
  chatid: string | null;

  @ApiProperty({ nullable: true, type: String, example: TIME_EXAMPLE, description: 'ISO 8601 UTC; null when never logged in.' })
  lastLogin: string | null;
}

class PlayerMatchesDoc {
  @ApiProperty({ type: [PlayerMatchDoc], description: 'At most 20, most recently seen first.' })
  items: PlayerMatchDoc[];
}

export class PlayerSearchResponseDoc {
  @ApiProperty({ type: PlayerMatchesDoc })
  data: PlayerMatchesDoc;
}

class ModerationPlayerDoc extends PlayerMatchDoc {
  @ApiProperty({ description: "The player's permission group now (`default` when nothing is known).", example: 'default' })
  group: string;

  @ApiProperty({ nullable: true, type: String, example: TIME_EXAMPLE })
  firstLogin: string | null;
}

class LoginDoc {
  @ApiProperty({ description: 'The game id used then.', example: 'Notch' })
  mcid: string;

  @ApiProperty({ example: TIME_EXAMPLE })
  loggedInAt: string;
}

class EraSecondsDoc {
  @ApiProperty({ description: 'An era key of PLAYER_ERAS (or one imported).', example: 'era1' })
  era: string;

  @ApiProperty({ example: 3600 })
  seconds: number;
}

class PlayTimeDoc {
  @ApiProperty({ type: [EraSecondsDoc], description: 'Eras with data, in the order of PLAYER_ERAS.' })
  eras: EraSecondsDoc[];

  @ApiProperty({ example: 3600 })
  totalSeconds: number;

  @ApiProperty({ description: 'Seconds away from the keyboard in total.', example: 120 })
  awaySeconds: number;
}

class ChatAccountDoc {
  @ApiProperty({ description: 'The chat id.', example: '123456789012345678' })
  id: string;

  @ApiProperty({ example: 'notch' })
  name: string;

  @ApiProperty({ example: '0' })
  discriminator: string;

  @ApiProperty({ example: 'https://cdn.discordapp.com/embed/avatars/0.png' })
  avatarUrl: string;
}

class ChatAccountsDoc {
  @ApiProperty({ type: ChatAccountDoc, nullable: true, description: "The linked chat account; null without a link." })
  main: ChatAccountDoc | null;

  @ApiProperty({ type: ChatAccountDoc, nullable: true, description: 'The latest second account of the same person.' })
  sub: ChatAccountDoc | null;
}

class BanlistEntryDoc {
  @ApiProperty({ example: 90001 })
  banId: number;

  @ApiProperty({ enum: ['gban', 'lban'] })
  kind: string;

  @ApiProperty({ example: 'Griefing' })
  reason: string;

  @ApiProperty({ nullable: true, type: String, description: 'The server that issued it (the mirror knows it; null for a record no longer listed).', example: 'example.net' })
  server: string | null;

  @ApiProperty({ example: TIME_EXAMPLE })
  bannedAt: string;

  @ApiProperty({ description: 'True while the ban list lists it.' })
  active: boolean;
}

class RecordPlayerDoc {
  @ApiProperty({ example: UUID_EXAMPLE })
  uuid: string;

  @ApiProperty({ nullable: true, type: String, description: "The player's game id now, else the one on the record.", example: 'Notch' })
  mcid: string | null;
}

export class RecordSummaryDoc {
  @ApiProperty({ enum: RECORD_KINDS })
  kind: string;

  @ApiProperty({ description: 'The id within its kind, as text.', example: '12' })
  id: string;

  @ApiProperty({ type: RecordPlayerDoc })
  player: RecordPlayerDoc;

  @ApiProperty({ example: 'Griefing' })
  reason: string;

  @ApiProperty({ nullable: true, type: String, example: 'CONSOLE' })
  issuedBy: string | null;

  @ApiProperty({ example: TIME_EXAMPLE })
  issuedAt: string;

  @ApiProperty({ description: 'In force.' })
  active: boolean;

  @ApiProperty({ nullable: true, type: String, example: null, description: 'When it was lifted, where known.' })
  liftedAt: string | null;

  @ApiProperty({ example: 0 })
  evidenceCount: number;

  @ApiProperty()
  hasNote: boolean;
}

class CityOfPlayerDoc {
  @ApiProperty({ example: 12 })
  id: number;

  @ApiProperty({ example: 'Chuo' })
  name: string;

  @ApiProperty({ enum: CITY_STATES })
  status: string;
}

class ModerationPlayerPageDoc {
  @ApiProperty({ type: ModerationPlayerDoc })
  player: ModerationPlayerDoc;

  @ApiProperty({ type: [LoginDoc], description: 'The latest 20, newest first.' })
  logins: LoginDoc[];

  @ApiProperty({ type: PlayTimeDoc })
  playTime: PlayTimeDoc;

  @ApiProperty({ type: ChatAccountsDoc })
  chatAccounts: ChatAccountsDoc;

  @ApiProperty({ type: [BanlistEntryDoc], description: 'Bans on the ban list, newest first.' })
  banlist: BanlistEntryDoc[];

  @ApiProperty({ type: [RecordSummaryDoc], description: 'Every record of the player, newest first.' })
  records: RecordSummaryDoc[];

  @ApiProperty({ type: [CityOfPlayerDoc], description: 'Every city the player owns or owned, by id.' })
  cities: CityOfPlayerDoc[];
}

export class ModerationPlayerResponseDoc {
  @ApiProperty({ type: ModerationPlayerPageDoc })
  data: ModerationPlayerPageDoc;
}

class RecordListDoc {
  @ApiProperty({ type: [RecordSummaryDoc], description: 'Newest first.' })
  items: RecordSummaryDoc[];

  @ApiProperty({ nullable: true, type: String, description: 'Pass as cursor for the next page; null on the last.' })
  nextCursor: string | null;
}

export class RecordListResponseDoc {
  @ApiProperty({ type: RecordListDoc })
  data: RecordListDoc;
}

export class RecordDetailDoc extends RecordSummaryDoc {
  @ApiProperty({ nullable: true, type: String, description: 'Who lifted it from this API (apikey:<name> or club:<game id>); null otherwise.', example: null })
  liftedBy: string | null;

  @ApiProperty({ nullable: true, type: String, example: null })
  liftReason: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    example: null,
    description: "When the game server reported an operator's lift (its confirmation: it has applied it); null before, and for the game server's own lifts.",
  })
  liftConfirmedAt: string | null;

  @ApiProperty({ example: TIME_EXAMPLE })
  updatedAt: string;
}

export class EvidenceFileDoc {
  @ApiProperty({ example: '0123456789abcdef0123456789abcdef.png' })
  name: string;

  @ApiProperty({ example: 'image/png' })
  contentType: string;

  @ApiProperty({ description: 'Bytes, as stored (metadata stripped).', example: 20480 })
  size: number;

  @ApiProperty({ example: 640 })
  width: number;

  @ApiProperty({ example: 480 })
  height: number;

  @ApiProperty({ example: 'apikey:console' })
  addedBy: string;

  @ApiProperty({ example: TIME_EXAMPLE })
  addedAt: string;

  @ApiProperty({ description: 'Where the picture is served (public).', example: '/evidence/0123456789abcdef0123456789abcdef.png' })
  url: string;
}

/** Named apart from the city history's HistoryEntryDoc: OpenAPI schemas are named by class, and two of one name become one. */
class RecordHistoryEntryDoc {
  @ApiProperty({ example: TIME_EXAMPLE })
  at: string;

  @ApiProperty({ example: 'apikey:console' })
  actor: string;

  @ApiProperty({ enum: HISTORY_ACTIONS })
  action: string;

  @ApiProperty({ nullable: true, type: String, description: "The lift's reason, the new note (null when cleared), or the picture's name." })
  detail: string | null;
}

class RecordPageDoc {
  @ApiProperty({ type: RecordDetailDoc })
  record: RecordDetailDoc;

  @ApiProperty({ nullable: true, type: String })
  note: string | null;

  @ApiProperty({ type: [EvidenceFileDoc], description: 'Oldest first.' })
  evidence: EvidenceFileDoc[];

  @ApiProperty({ type: [RecordHistoryEntryDoc], description: 'Oldest first.' })
  history: RecordHistoryEntryDoc[];
}

export class RecordPageResponseDoc {
  @ApiProperty({ type: RecordPageDoc })
  data: RecordPageDoc;
}

export class RecordDetailResponseDoc {
  @ApiProperty({ type: RecordDetailDoc })
  data: RecordDetailDoc;
}

class NoteDoc {
  @ApiProperty({ nullable: true, type: String, description: 'The note now; null when cleared.' })
  note: string | null;
}

export class NoteResponseDoc {
  @ApiProperty({ type: NoteDoc })
  data: NoteDoc;
}

export class EvidenceFileResponseDoc {
  @ApiProperty({ type: EvidenceFileDoc })
  data: EvidenceFileDoc;
}

class RemovedDoc {
  @ApiProperty({ enum: [true] })
  removed: boolean;
}

export class EvidenceRemovedResponseDoc {
  @ApiProperty({ type: RemovedDoc })
  data: RemovedDoc;
}
