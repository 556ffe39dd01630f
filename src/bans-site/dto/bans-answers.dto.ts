import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The bans site's answers, as the OpenAPI document describes them (docs/bans-site.md). */

const TIME = { description: "ISO 8601 with the community's time zone offset.", example: '2022-01-02T03:04:05+09:00' };

export class BanListItemDoc {
  @ApiProperty({ description: 'The ban-list service’s ban id.', example: 12345 })
  banid: number;

  @ApiProperty({ description: "The player's current game id here, else the ban-list service's name of the player.", type: String, nullable: true, example: 'Notch' })
  mcid: string | null;

  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ example: 'griefing' })
  reason: string;

  @ApiProperty({ description: 'true while the ban-list service lists the ban.' })
  status: boolean;

  @ApiProperty(TIME)
  banned_at: string;
}

export class BanPunishmentItemDoc {
  @ApiProperty({ description: "The service's own punishment id.", example: 42 })
  id: number;

  @ApiProperty({ description: "The player's current game id here, else the name at the time.", example: 'Notch' })
  mcid: string;

  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ example: 'spam' })
  reason: string;

  @ApiProperty({ description: 'true while in force.' })
  status: boolean;

  @ApiProperty(TIME)
  banned_at: string;
}

class BanListCountsDoc {
  @ApiProperty({ example: 3 })
  gban: number;

  @ApiProperty({ example: 1 })
  lban: number;
}

class BanListItemsDoc {
  @ApiProperty({ type: [BanListItemDoc] })
  gban: BanListItemDoc[];

  @ApiProperty({ type: [BanListItemDoc] })
  lban: BanListItemDoc[];
}

export class BanListAnswerDoc {
  @ApiProperty({ type: BanListCountsDoc, description: 'How many records the same parameters select, without the limit.' })
  count: BanListCountsDoc;

  @ApiProperty({ type: BanListItemsDoc })
  items: BanListItemsDoc;
}

export class PunishmentListAnswerDoc {
  @ApiProperty({ description: 'How many records the same parameters select, without the limit.', example: 20 })
  count: number;

  @ApiProperty({ type: [BanPunishmentItemDoc] })
  items: BanPunishmentItemDoc[];
}

class PlayerBansDoc {
  @ApiProperty({ type: [BanListItemDoc] })
  gban: BanListItemDoc[];

  @ApiProperty({ type: [BanListItemDoc] })
  lban: BanListItemDoc[];

  @ApiProperty({ type: [BanPunishmentItemDoc] })
  vban: BanPunishmentItemDoc[];

  @ApiProperty({ type: [BanPunishmentItemDoc] })
  eban: BanPunishmentItemDoc[];

  @ApiProperty({ type: [BanPunishmentItemDoc] })
  chatban: BanPunishmentItemDoc[];
}

export class PlayerBansAnswerDoc {
  @ApiProperty({ type: PlayerBansDoc, description: "Every record of the player, every state, newest first; all five arrays always present." })
  data: PlayerBansDoc;
}

class BanDetailDoc {
  @ApiPropertyOptional({ description: 'gban, lban: the ban id.', example: 12345 })
  banid?: number;

  @ApiPropertyOptional({ description: 'vban, eban, chatban: the punishment id.', example: 42 })
  id?: number;

  @ApiProperty({ description: "The player's current game id (gban, lban: null when the player was never seen).", type: String, nullable: true, example: 'Notch' })
  player: string | null;

  @ApiProperty({ example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ example: 'griefing' })
  reason: string;

  @ApiProperty({ description: 'true while in force.' })
  status: boolean;

  @ApiProperty({ description: 'Who issued it (gban, lban: null when unknown).', type: String, nullable: true, example: 'Moderator' })
  banned_by: string | null;

  @ApiPropertyOptional({ ...TIME, description: 'gban, lban: when it was issued.' })
  banned_at?: string;

  @ApiPropertyOptional({ ...TIME, description: 'vban, eban, chatban: when it was issued.' })
  created_at?: string;

  @ApiProperty({ ...TIME, description: "The record's last change." })
  updated_at: string;
}

export class BanDetailAnswerDoc {
  @ApiProperty({ type: BanDetailDoc })
  detail: BanDetailDoc;

  @ApiProperty({ type: [String], nullable: true, description: 'Names of the evidence pictures, oldest first (fetch each from /evidence/{name}); null when there are none.', example: ['3f2a9c1b7d0e4a5b8c6d9e0f1a2b3c4d.png'] })
  proofs: string[] | null;
}

export class BansNotFoundDoc {
  @ApiProperty({ example: false })
  status: boolean;

  @ApiProperty({ example: 404 })
  code: number;

  @ApiProperty({ example: '3f2a9c1b7d0e' })
  version: string;

  @ApiProperty({ example: 'User not found.' })
  message: string;

  @ApiProperty({ example: 'プレイヤーが見つかりません。' })
  message_ja: string;
}
