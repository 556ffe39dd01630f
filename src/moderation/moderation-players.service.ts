import { Injectable } from '@nestjs/common';
import { BanlistLookupService } from '../banlist-sync/banlist-lookup.service';
import { ChatAccountsReader, type ChatAccountView } from '../chat-accounts/chat-accounts.reader';
import { CitiesQueryService } from '../cities/cities-query.service';
import type { CityState } from '../cities/city.entity';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { CHATID_PATTERN, MCID_PATTERN, normaliseUuid } from '../common/identifiers';
import { CommunityBansReader } from '../community-bans/community-bans.reader';
import type { CommunityBanRecord } from '../community-bans/community-banlist-bans.repository';
import { PlayTimeReader } from '../play-time/play-time.reader';
import { PlayerGroupsReader } from '../player-groups/player-groups.reader';
import { type PlayerRecord, PlayersRepository } from '../players/players.repository';
import { LoginsRepository } from '../users/logins.repository';
import type { RecordSummary } from './moderation-record';
import { ModerationRecordsService } from './moderation-records.service';
import { PAGE_LOGINS, SEARCH_MATCHES } from './moderation-limits';
import { recordKindOfBan, type BanRecordKind } from '../evidence/record-ref';


export interface PlayerMatch {
  uuid: string;
  mcid: string | null;
  chatid: string | null;
  lastLogin: string | null;
}

export interface BanlistEntry {
  banId: number;
  kind: BanRecordKind;
  reason: string;
  server: string | null;
  bannedAt: string;
  active: boolean;
}

export interface ModerationPlayerPage {
  player: { uuid: string; mcid: string | null; chatid: string | null; group: string; firstLogin: string | null; lastLogin: string | null };
  logins: Array<{ mcid: string; loggedInAt: string }>;
  playTime: { eras: Array<{ era: string; seconds: number }>; totalSeconds: number; awaySeconds: number };
  chatAccounts: { main: ChatAccountView | null; sub: ChatAccountView | null };
  banlist: BanlistEntry[];
  records: RecordSummary[];
  cities: Array<{ id: number; name: string; status: CityState }>;
}

function matchOf(player: PlayerRecord): PlayerMatch {
  return { uuid: player.uuid, mcid: player.mcid, chatid: player.chatid, lastLogin: player.lastLogin?.toISOString() ?? null };
}

/**
 * The moderation API's players (docs/api.md, Moderation): the search box and a player's page,
 * each part read from the feature that keeps it.
 */
@Injectable()
export class ModerationPlayersService {
  constructor(
    private readonly players: PlayersRepository,
    private readonly logins: LoginsRepository,
    private readonly playTime: PlayTimeReader,
    private readonly groups: PlayerGroupsReader,
    private readonly chatAccounts: ChatAccountsReader,
    private readonly banlist: BanlistLookupService,
    private readonly communityBans: CommunityBansReader,
    private readonly cities: CitiesQueryService,
    private readonly records: ModerationRecordsService,
  ) {}

  /**
   * `q`: a uuid (with or without hyphens), a chat id (17-20 digits, which no game id is), else the
   * start of a game id in any case; anything else matches nobody.
   */
  async search(q: string): Promise<PlayerMatch[]> {
    const text = q.trim();
    const uuid = normaliseUuid(text);
    if (uuid) {
      const player = await this.players.getByUuid(uuid);
      return player ? [matchOf(player)] : [];
    }
    if (CHATID_PATTERN.test(text)) {
      const player = await this.players.getByChatid(text);
      return player ? [matchOf(player)] : [];
    }
    if (MCID_PATTERN.test(text)) {
      return (await this.players.searchByMcidPrefix(text, SEARCH_MATCHES)).map(matchOf);
    }
    return [];
  }

  async page(rawUuid: string): Promise<ModerationPlayerPage> {
    const uuid = normaliseUuid(rawUuid);
    const player = uuid ? await this.players.getByUuid(uuid) : null;
    if (!uuid || !player) {
      throw ApiError.notFound(msg('moderation.playerNotFound', { uuid: rawUuid }));
    }
    // Read once for both the ban-list entries and the records.
    const ownBans = this.communityBans.forPlayer(uuid);
    const [group, logins, eras, away, chat, banlist, records, cities] = await Promise.all([
      this.groups.current(uuid, player),
      this.logins.getRecentOf(uuid, PAGE_LOGINS),
      this.playTime.eraTotals(uuid),
      this.playTime.awaySeconds(uuid),
      this.chatAccounts.forPlayer(uuid, player.chatid),
      this.banlistOf(uuid, ownBans),
      this.records.ofPlayer(uuid, ownBans),
      this.cities.ownedBy(uuid),
    ]);
    const eraList = [...eras].map(([era, seconds]) => ({ era, seconds }));
    return {
      player: {
        uuid,
        mcid: player.mcid,
        chatid: player.chatid,
        group: group.group,
        firstLogin: player.firstLogin?.toISOString() ?? null,
        lastLogin: player.lastLogin?.toISOString() ?? null,
      },
      logins: logins.map((login) => ({ mcid: login.mcid, loggedInAt: login.loggedInAt.toISOString() })),
      playTime: { eras: eraList, totalSeconds: eraList.reduce((sum, era) => sum + era.seconds, 0), awaySeconds: away },
      chatAccounts: chat,
      banlist,
      records,
      cities: cities.map((city) => ({ id: city.id, name: city.name, status: city.state })),
    };
  }

  /**
   * The ban list's bans of the player: those the mirror holds now (in force), then this
   * community's own records the mirror no longer lists, with their state; newest first.
   */
  private async banlistOf(uuid: string, ownBans: Promise<readonly CommunityBanRecord[]>): Promise<BanlistEntry[]> {
    const [mirrored, own] = await Promise.all([this.banlist.bansOf(uuid), ownBans]);
    const listed = new Set(mirrored.map((ban) => ban.banId));
    const entries: BanlistEntry[] = [
      ...mirrored.map((ban) => ({ banId: ban.banId, kind: recordKindOfBan(ban.type), reason: ban.reason, server: ban.server, bannedAt: ban.bannedAt, active: true })),
      ...own
        .filter((ban) => !listed.has(ban.banId))
        .map((ban) => ({ banId: ban.banId, kind: recordKindOfBan(ban.type), reason: ban.reason, server: null, bannedAt: ban.bannedAt.toISOString(), active: ban.active })),
    ];
    return entries.sort((a, b) => b.bannedAt.localeCompare(a.bannedAt) || b.banId - a.banId);
  }
}
