import { Injectable } from '@nestjs/common';
import { positiveIntOf } from '../common/identifiers';
import { ApiError } from '../common/errors/api-error';
import { isoWithOffset } from '../common/time/zone-offset';
import { type CommunityBanRecord, CommunityBansReader } from '../community-bans/community-bans.reader';
import { AppConfig } from '../config/app-config';
import { EvidenceReader } from '../evidence/evidence.reader';
import { type NamedPunishmentRecord, PunishmentsReader } from '../punishments/punishments.reader';
import { SitePlayersService } from '../site-players/site-players.service';
import { banListTypeOf, type BanPunishmentKind, type BanSiteKind, isBanListKind, isBanSiteKind, listLimit, type ListOptions, punishmentKindOf } from './ban-kinds';

/** A ban-list record in a list (`B`): `status` beside the site's fields, for lists that show lifted ones. */
export interface SiteBanListItem {
  banid: number;
  mcid: string | null;
  uuid: string;
  reason: string;
  status: boolean;
  banned_at: string;
}

/** A punishment in a list (`P`). */
export interface SitePunishmentItem {
  id: number;
  mcid: string;
  uuid: string;
  reason: string;
  status: boolean;
  banned_at: string;
}

export interface SitePlayerBans {
  gban: SiteBanListItem[];
  lban: SiteBanListItem[];
  vban: SitePunishmentItem[];
  eban: SitePunishmentItem[];
  chatban: SitePunishmentItem[];
}

export interface SiteBanListAnswer {
  count: { gban: number; lban: number };
  items: { gban: SiteBanListItem[]; lban: SiteBanListItem[] };
}

export interface SitePunishmentListAnswer {
  count: number;
  items: SitePunishmentItem[];
}

export interface SiteBanDetailAnswer {
  detail: SiteBanDetail;
  proofs: string[] | null;
}

export type SiteBanDetail =
  | { banid: number; player: string | null; uuid: string; reason: string; status: boolean; banned_by: string | null; banned_at: string; updated_at: string }
  | { id: number; player: string; uuid: string; reason: string; status: boolean; banned_by: string; created_at: string; updated_at: string };

/**
 * The bans site's reads (docs/bans-site.md): lists per kind, one player's records, one record's
 * details with its evidence pictures. It owns no data: the community's ban-list records,
 * punishments and evidence are read from their features. Times are ISO 8601 with the offset of
 * COMMUNITY_TIME_ZONE.
 */
@Injectable()
export class BansSiteService {
  constructor(
    private readonly config: AppConfig,
    private readonly communityBans: CommunityBansReader,
    private readonly punishments: PunishmentsReader,
    private readonly evidence: EvidenceReader,
    private readonly players: SitePlayersService,
  ) {}

  /** `recent/mcbans`: both ban-list kinds, each cut and counted as asked. */
  async banList(options: ListOptions): Promise<SiteBanListAnswer> {
    const [gban, lban] = await Promise.all((['global', 'local'] as const).map((type) => this.banListOf(type, options)));
    return { count: { gban: gban.count, lban: lban.count }, items: { gban: gban.items, lban: lban.items } };
  }

  /** `recent/vban|eban|chatban`. */
  async punishmentList(kind: BanPunishmentKind, options: ListOptions): Promise<SitePunishmentListAnswer> {
    const [count, records] = await Promise.all([
      this.punishments.countOfKind(punishmentKindOf(kind), options.activeOnly),
      this.punishments.listOfKind(punishmentKindOf(kind), options.activeOnly, listLimit(options)),
    ]);
    return { count, items: records.map((record) => this.punishmentItem(record)) };
  }

  /** `recent/{player}`: every record of the player, every state, all five kinds; 404 for an unknown player. */
  async playerBans(raw: string): Promise<{ data: SitePlayerBans }> {
    const uuid = await this.players.resolveUuid(raw);
    const [bans, punishments] = await Promise.all([this.communityBans.forPlayer(uuid), this.punishments.namedForPlayer(uuid)]);
    const ofKind = (kind: BanPunishmentKind): SitePunishmentItem[] =>
      punishments.filter((record) => record.kind === punishmentKindOf(kind)).map((record) => this.punishmentItem(record));
    return {
      data: {
        gban: bans.filter((ban) => ban.type === 'global').map((ban) => this.banListItem(ban)),
        lban: bans.filter((ban) => ban.type === 'local').map((ban) => this.banListItem(ban)),
        vban: ofKind('vban'),
        eban: ofKind('eban'),
        chatban: ofKind('chatban'),
      },
    };
  }

  /** `details/{kind}/{id}`: the record and its evidence pictures' names (null: none); 404 for anything else. */
  async details(rawKind: string, rawId: string): Promise<SiteBanDetailAnswer> {
    const id = positiveIntOf(rawId);
    if (id === undefined || !isBanSiteKind(rawKind)) {
      throw ApiError.notFound('bans.recordNotFound');
    }
    const detail = await this.detailOf(rawKind, id);
    if (!detail) {
      throw ApiError.notFound('bans.recordNotFound');
    }
    const names = await this.evidence.namesFor({ kind: rawKind, id: String(id) });
    return { detail, proofs: names.length > 0 ? names : null };
  }

  private async detailOf(kind: BanSiteKind, id: number): Promise<SiteBanDetail | null> {
    if (isBanListKind(kind)) {
      const ban = await this.communityBans.byBanId(id);
      if (!ban || ban.type !== banListTypeOf(kind)) {
        return null;
      }
      return {
        banid: ban.banId,
        player: ban.mcid,
        uuid: ban.uuid,
        reason: ban.reason,
        status: ban.active,
        banned_by: ban.bannedBy,
        banned_at: this.time(ban.bannedAt),
        updated_at: this.time(ban.updatedAt),
      };
    }
    const record = await this.punishments.named(punishmentKindOf(kind), id);
    return (
      record && {
        id: record.id,
        player: record.playerName,
        uuid: record.uuid,
        reason: record.reason,
        status: record.active,
        banned_by: record.issuedBy,
        created_at: this.time(record.issuedAt),
        updated_at: this.time(record.updatedAt),
      }
    );
  }

  private async banListOf(type: 'global' | 'local', options: ListOptions): Promise<{ count: number; items: SiteBanListItem[] }> {
    const filter = options.activeOnly ? { type, active: true } : { type };
    const [count, records] = await Promise.all([this.communityBans.count(filter), this.communityBans.list(filter, listLimit(options))]);
    return { count, items: records.map((record) => this.banListItem(record)) };
  }

  private banListItem(ban: CommunityBanRecord): SiteBanListItem {
    return { banid: ban.banId, mcid: ban.mcid, uuid: ban.uuid, reason: ban.reason, status: ban.active, banned_at: this.time(ban.bannedAt) };
  }

  private punishmentItem(record: NamedPunishmentRecord): SitePunishmentItem {
    return { id: record.id, mcid: record.playerName, uuid: record.uuid, reason: record.reason, status: record.active, banned_at: this.time(record.issuedAt) };
  }

  private time(date: Date): string {
    return isoWithOffset(date, this.config.COMMUNITY_TIME_ZONE);
  }
}
