import { ApiProperty } from '@nestjs/swagger';

/** The players site's answers, as the OpenAPI document describes them (docs/players-site.md). */

export class SiteErrorDoc {
  @ApiProperty({ description: 'What went wrong, in plain words (HTML-escaped). An unknown player is exactly "User not found."', example: 'User not found.' })
  error: string;
}

export class PlayerNameDoc {
  @ApiProperty({ description: 'Latest game id.', example: 'Notch' })
  mcid: string;

  @ApiProperty({ description: 'Game UUID with hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;
}

export class RecentPlayerLoginDoc extends PlayerNameDoc {
  @ApiProperty({ description: 'Id of the login record (unique in the list).', example: 812 })
  id: number;

  @ApiProperty({ description: "Time of the login, wall clock in the community's time zone.", example: '2026-11-22 12:04:05' })
  date: string;
}

export class PlayerLoginDoc {
  @ApiProperty({ example: 812 })
  id: number;

  @ApiProperty({ description: 'The game id used at that login.', example: 'Notch' })
  mcid: string;

  @ApiProperty({ description: "Wall clock in the community's time zone.", example: '2026-11-22 12:04:05' })
  date: string;
}

export class PunishmentCountsDoc {
  @ApiProperty({ example: 1 })
  jail: number;

  @ApiProperty({ example: 0 })
  chatjail: number;

  @ApiProperty({ example: 0 })
  eban: number;

  @ApiProperty({ example: 0 })
  vban: number;
}

export class SitePunishmentDoc {
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

export class SitePunishmentsDoc {
  @ApiProperty({ type: PunishmentCountsDoc })
  count: PunishmentCountsDoc;

  @ApiProperty({ type: [SitePunishmentDoc], description: 'Every punishment, newest first.' })
  items: SitePunishmentDoc[];
}

export class DailyOnlineDoc {
  @ApiProperty({ description: "The day, in the community's time zone.", example: '2026-11-22' })
  date: string;

  @ApiProperty({ description: 'Seconds played that day (a session across midnight is split; at most 86400).', example: 5400 })
  count: number;
}

export class SiteInfoDoc {
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

export class SocialsDoc {
  @ApiProperty({ type: String, nullable: true, example: 'notch' })
  twitterId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The linked chat id.', example: '123456789012345678' })
  discordId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'A GitHub login.', example: 'notch' })
  githubId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'An http(s) URL.', example: 'https://example.org/' })
  homeUrl: string | null;
}

export class SiteProfileDoc {
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

export class SiteChatAccountDoc {
  @ApiProperty({ description: 'Chat id.', example: '123456789012345678' })
  id: string;

  @ApiProperty({ example: 'notch' })
  name: string;

  @ApiProperty({ description: '"0" where the platform has none.', example: '0' })
  discriminator: string;

  @ApiProperty({ description: "Avatar URL as last reported; the platform's default until one is.", example: 'https://cdn.discordapp.com/embed/avatars/0.png' })
  imgurl: string;
}

export class SiteChatAccountsDoc {
  @ApiProperty({ type: SiteChatAccountDoc, nullable: true })
  mainAccount: SiteChatAccountDoc | null;

  @ApiProperty({ type: SiteChatAccountDoc, nullable: true, description: 'The latest second account of the same person.' })
  subAccount: SiteChatAccountDoc | null;
}
