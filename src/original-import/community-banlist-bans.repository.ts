import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import { dateOf, type DbTime } from '../database/transformers';
import type { BanTimeFrom } from './community-banlist-ban.entity';

/** A ban-list ban issued on the community's own server, as an import gives it. */
export interface NewCommunityBan {
  origin: 'original';
  sourceId: string;
  banId: number;
  uuid: string;
  type: 'global' | 'local';
  reason: string;
  bannedBy: string | null;
  bannedAt: Date;
  bannedAtFrom: BanTimeFrom;
}

/** A community ban as the moderation API reads it. */
export interface CommunityBanRecord {
  banId: number;
  uuid: string;
  type: 'global' | 'local';
  reason: string;
  bannedBy: string | null;
  bannedAt: Date;
  active: boolean;
  updatedAt: Date;
}

/** The moderation list's filter (docs/api.md, Moderation); `before` is the page's keyset bound, newest first. */
export interface CommunityBanFilter {
  types: ReadonlyArray<'global' | 'local'>;
  active?: boolean;
  bannedBy?: string;
  uuid?: string;
  from?: Date;
  to?: Date;
  before?: { at: Date; idBelow: number };
}

interface CommunityBanRow {
  banId: number;
  uuid: string;
  type: 'global' | 'local';
  reason: string;
  bannedBy: string | null;
  bannedAt: DbTime;
  active: number | boolean;
  updatedAt: DbTime;
}

const COMMUNITY_BAN =
  'SELECT ban_id AS banId, player_uuid AS uuid, type, reason, banned_by AS bannedBy, banned_at AS bannedAt, active, updated_at AS updatedAt FROM community_banlist_bans';

function toCommunityBan(row: CommunityBanRow): CommunityBanRecord {
  return {
    banId: Number(row.banId),
    uuid: row.uuid,
    type: row.type,
    reason: row.reason,
    bannedBy: row.bannedBy,
    bannedAt: dateOf(row.bannedAt),
    active: Boolean(Number(row.active)),
    updatedAt: dateOf(row.updatedAt),
  };
}

/** Ban ids per IN (…) list: within both drivers' placeholder limits. */
const IDS_PER_QUERY = 500;

const INSERT_SQL =
  'INSERT INTO community_banlist_bans (ban_id, player_uuid, type, reason, banned_by, banned_at, banned_at_from, active, origin, source_id, created_at, updated_at) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)';

/** The community's own ban-list records (`community_banlist_bans`), and the mirror's times they may borrow. */
@Injectable()
export class CommunityBanlistBansRepository {
  constructor(private readonly reader: SqlReader) {}

  /** One record by its ban id (the moderation API). */
  async getById(banId: number): Promise<CommunityBanRecord | null> {
    const row = await this.reader.one<CommunityBanRow>(`${COMMUNITY_BAN} WHERE ban_id = ?`, [banId]);
    return row ? toCommunityBan(row) : null;
  }

  /** A player's records, newest first. */
  async listForPlayer(uuid: string): Promise<CommunityBanRecord[]> {
    return (await this.reader.all<CommunityBanRow>(`${COMMUNITY_BAN} WHERE player_uuid = ? ORDER BY banned_at DESC, ban_id DESC`, [uuid])).map(toCommunityBan);
  }

  /** The moderation list's page, newest first (banned_at, then ban id): fixed fragments joined by AND, every value a parameter. */
  async list(filter: CommunityBanFilter, limit: number): Promise<CommunityBanRecord[]> {
    if (filter.types.length === 0) {
      return [];
    }
    const where: string[] = [`type IN (${filter.types.map(() => '?').join(', ')})`];
    const params: unknown[] = [...filter.types];
    if (filter.active !== undefined) {
      where.push('active = ?');
      params.push(filter.active ? 1 : 0);
    }
    if (filter.bannedBy !== undefined) {
      where.push('banned_by = ?');
      params.push(filter.bannedBy);
    }
    if (filter.uuid !== undefined) {
      where.push('player_uuid = ?');
      params.push(filter.uuid);
    }
    if (filter.from !== undefined) {
      where.push('banned_at >= ?');
      params.push(this.reader.time(filter.from));
    }
    if (filter.to !== undefined) {
      where.push('banned_at < ?');
      params.push(this.reader.time(filter.to));
    }
    if (filter.before !== undefined) {
      where.push('(banned_at < ? OR (banned_at = ? AND ban_id < ?))');
      params.push(this.reader.time(filter.before.at), this.reader.time(filter.before.at), filter.before.idBelow);
    }
    params.push(limit);
    const rows = await this.reader.all<CommunityBanRow>(`${COMMUNITY_BAN} WHERE ${where.join(' AND ')} ORDER BY banned_at DESC, ban_id DESC LIMIT ?`, params);
    return rows.map(toCommunityBan);
  }

  /** The mirror's time of each of these ban ids that it has. */
  async mirrorTimes(tx: Transaction, banIds: readonly number[]): Promise<Map<number, Date>> {
    const times = new Map<number, Date>();
    for (const chunk of chunks([...new Set(banIds)], IDS_PER_QUERY)) {
      const rows = await tx.all<{ banId: number | string; bannedAt: DbTime }>(
        `SELECT ban_id AS banId, banned_at AS bannedAt FROM banlist_bans WHERE ban_id IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      for (const row of rows) {
        times.set(Number(row.banId), dateOf(row.bannedAt));
      }
    }
    return times;
  }

  /** Who holds each of these ban ids here: (origin, source id). */
  async holders(tx: Transaction, banIds: readonly number[]): Promise<Map<number, { origin: string; sourceId: string }>> {
    const holders = new Map<number, { origin: string; sourceId: string }>();
    for (const chunk of chunks([...new Set(banIds)], IDS_PER_QUERY)) {
      const rows = await tx.all<{ banId: number | string; origin: string; sourceId: string }>(
        `SELECT ban_id AS banId, origin, source_id AS sourceId FROM community_banlist_bans WHERE ban_id IN (${chunk.map(() => '?').join(', ')})${tx.forUpdate}`,
        chunk,
      );
      for (const row of rows) {
        holders.set(Number(row.banId), { origin: row.origin, sourceId: row.sourceId });
      }
    }
    return holders;
  }

  async insert(tx: Transaction, ban: NewCommunityBan, now: Date): Promise<void> {
    await tx.run(INSERT_SQL, [
      ban.banId,
      ban.uuid,
      ban.type,
      ban.reason,
      ban.bannedBy,
      tx.time(ban.bannedAt),
      ban.bannedAtFrom,
      ban.origin,
      ban.sourceId,
      tx.time(now),
      tx.time(now),
    ]);
  }
}
