import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import { dateOf, type DbTime } from '../database/transformers';
import type { BanTimeFrom } from './community-banlist-ban.entity';
import type { BanChanges, BanListType, HeldBan } from './community-bans-listing';

/** Who recorded a community ban: the original database's import, or the ban-list sync (source id: the ban id). */
export type CommunityBanOrigin = 'original' | 'banlist-sync';

/** A ban-list ban issued on the community's own server, as an import or a sync gives it. */
export interface NewCommunityBan {
  origin: CommunityBanOrigin;
  sourceId: string;
  banId: number;
  uuid: string;
  type: 'global' | 'local';
  reason: string;
  bannedBy: string | null;
  bannedAt: Date;
  bannedAtFrom: BanTimeFrom;
}

/** A community record as every read returns it, with the player's name. */
export interface CommunityBanRecord {
  banId: number;
  uuid: string;
  type: BanListType;
  /**
   * The player's current game id here, else the ban-list service's name of the player, else null
   * (a player the service has never seen and who never logged in).
   */
  mcid: string | null;
  reason: string;
  bannedBy: string | null;
  bannedAt: Date;
  active: boolean;
  origin: CommunityBanOrigin;
  updatedAt: Date;
}

/** Which records a list selects; every field narrows it. */
export interface CommunityBanFilter {
  type?: BanListType;
  active?: boolean;
  playerUuid?: string;
  bannedBy?: string;
  /** `bannedAt` at or after. */
  from?: Date;
  /** `bannedAt` before. */
  to?: Date;
  /** Keyset cursor: records after this one, newest first. */
  after?: { bannedAt: Date; banId: number };
}

interface CommunityBanRow {
  banId: number | string;
  uuid: string;
  type: string;
  mcid: string | null;
  reason: string;
  bannedBy: string | null;
  bannedAt: DbTime;
  active: number | boolean;
  origin: string;
  updatedAt: DbTime;
}

interface HeldBanRow {
  banId: number | string;
  playerUuid: string;
  type: string;
  reason: string;
  bannedBy: string | null;
  bannedAt: DbTime;
  bannedAtFrom: string;
  active: number | boolean;
}

// The name: our current game id (players' primary key), else the mirror's name of the player (banlist_players' primary key).
const RECORD =
  'SELECT ban.ban_id AS banId, ban.player_uuid AS uuid, ban.type, COALESCE(known.mcid, mirrored.upstream_name) AS mcid, ban.reason, ban.banned_by AS bannedBy, ' +
  'ban.banned_at AS bannedAt, ban.active, ban.origin, ban.updated_at AS updatedAt FROM community_banlist_bans ban ' +
  'LEFT JOIN players known ON known.uuid = ban.player_uuid LEFT JOIN banlist_players mirrored ON mirrored.uuid = ban.player_uuid';
const NEWEST_FIRST = 'ORDER BY ban.banned_at DESC, ban.ban_id DESC';
// IDX_community_banlist_bans_player: one range of the index.
const FOR_PLAYER_SQL = `${RECORD} WHERE ban.player_uuid = ? ${NEWEST_FIRST}`;
const BY_BAN_ID_SQL = `${RECORD} WHERE ban.ban_id = ?`;
const ANY_FOR_PLAYER_SQL = 'SELECT 1 AS found FROM community_banlist_bans WHERE player_uuid = ? LIMIT 1';
const HELD_COLUMNS =
  'SELECT ban_id AS banId, player_uuid AS playerUuid, type, reason, banned_by AS bannedBy, banned_at AS bannedAt, banned_at_from AS bannedAtFrom, active FROM community_banlist_bans';
const CHANGE_COLUMNS: Record<keyof BanChanges, string> = {
  playerUuid: 'player_uuid',
  type: 'type',
  reason: 'reason',
  bannedBy: 'banned_by',
  bannedAt: 'banned_at',
  bannedAtFrom: 'banned_at_from',
  active: 'active',
};

function toRecord(row: CommunityBanRow): CommunityBanRecord {
  return {
    banId: Number(row.banId),
    uuid: row.uuid,
    type: row.type as BanListType,
    mcid: row.mcid,
    reason: row.reason,
    bannedBy: row.bannedBy,
    bannedAt: dateOf(row.bannedAt),
    active: Boolean(Number(row.active)),
    origin: row.origin as CommunityBanOrigin,
    updatedAt: dateOf(row.updatedAt),
  };
}

function toHeld(row: HeldBanRow): HeldBan {
  return {
    banId: Number(row.banId),
    playerUuid: row.playerUuid,
    type: row.type as BanListType,
    reason: row.reason,
    bannedBy: row.bannedBy,
    bannedAt: dateOf(row.bannedAt),
    bannedAtFrom: row.bannedAtFrom as BanTimeFrom,
    active: Boolean(Number(row.active)),
  };
}

/** The WHERE clause of a filter (`ban.` columns) and its parameters. */
function where(filter: CommunityBanFilter, time: (date: Date) => Date | string): { sql: string; parameters: unknown[] } {
  const clauses: string[] = [];
  const parameters: unknown[] = [];
  if (filter.type !== undefined) {
    clauses.push('ban.type = ?');
    parameters.push(filter.type);
  }
  if (filter.active !== undefined) {
    clauses.push('ban.active = ?');
    parameters.push(filter.active ? 1 : 0);
  }
  if (filter.playerUuid !== undefined) {
    clauses.push('ban.player_uuid = ?');
    parameters.push(filter.playerUuid);
  }
  if (filter.bannedBy !== undefined) {
    clauses.push('ban.banned_by = ?');
    parameters.push(filter.bannedBy);
  }
  if (filter.from !== undefined) {
    clauses.push('ban.banned_at >= ?');
    parameters.push(time(filter.from));
  }
  if (filter.to !== undefined) {
    clauses.push('ban.banned_at < ?');
    parameters.push(time(filter.to));
  }
  if (filter.after !== undefined) {
    clauses.push('(ban.banned_at < ? OR (ban.banned_at = ? AND ban.ban_id < ?))');
    parameters.push(time(filter.after.bannedAt), time(filter.after.bannedAt), filter.after.banId);
  }
  return { sql: clauses.length > 0 ? ` WHERE ${clauses.join(' AND ')}` : '', parameters };
}

/** Ban ids per IN (…) list: within both drivers' placeholder limits. */
const IDS_PER_QUERY = 500;

const INSERT_SQL =
  'INSERT INTO community_banlist_bans (ban_id, player_uuid, type, reason, banned_by, banned_at, banned_at_from, active, origin, source_id, created_at, updated_at) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)';

/**
 * Every query of the community's own ban-list records (`community_banlist_bans`), and their one
 * writer: the import and the ban-list sync. Lists by type (and state) read IDX_community_banlist_bans_state
 * or IDX_community_banlist_bans_time newest first and stop at the limit; a player's records read
 * IDX_community_banlist_bans_player.
 */
@Injectable()
export class CommunityBanlistBansRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Records a filter selects, newest first (by time, then ban id); `limit` null: all of them. */
  async list(filter: CommunityBanFilter, limit: number | null): Promise<CommunityBanRecord[]> {
    const { sql, parameters } = where(filter, (date) => this.reader.time(date));
    const rows = await this.reader.all<CommunityBanRow>(`${RECORD}${sql} ${NEWEST_FIRST}${limit === null ? '' : ' LIMIT ?'}`, limit === null ? parameters : [...parameters, limit]);
    return rows.map(toRecord);
  }

  /** How many records a filter selects (its cursor ignored). */
  async count(filter: CommunityBanFilter): Promise<number> {
    const { sql, parameters } = where({ ...filter, after: undefined }, (date) => this.reader.time(date));
    const row = await this.reader.one<{ count: number | string }>(`SELECT COUNT(*) AS count FROM community_banlist_bans ban${sql}`, parameters);
    return Number(row?.count ?? 0);
  }

  /** Every record of a player, newest first. */
  async listForPlayer(uuid: string): Promise<CommunityBanRecord[]> {
    return (await this.reader.all<CommunityBanRow>(FOR_PLAYER_SQL, [uuid])).map(toRecord);
  }

  async getByBanId(banId: number): Promise<CommunityBanRecord | null> {
    const row = await this.reader.one<CommunityBanRow>(BY_BAN_ID_SQL, [banId]);
    return row ? toRecord(row) : null;
  }

  async hasAnyForPlayer(uuid: string): Promise<boolean> {
    return (await this.reader.one<{ found: number }>(ANY_FOR_PLAYER_SQL, [uuid])) !== undefined;
  }

  /** The records of a player and of these ban ids, as the sync's transaction sees them (locked on MySQL). */
  async getHeldIn(tx: Transaction, uuid: string, banIds: readonly number[]): Promise<HeldBan[]> {
    const byId = new Map<number, HeldBan>();
    for (const row of await tx.all<HeldBanRow>(`${HELD_COLUMNS} WHERE player_uuid = ?${tx.forUpdate}`, [uuid])) {
      byId.set(Number(row.banId), toHeld(row));
    }
    for (const chunk of chunks([...new Set(banIds)], IDS_PER_QUERY)) {
      for (const row of await tx.all<HeldBanRow>(`${HELD_COLUMNS} WHERE ban_id IN (${chunk.map(() => '?').join(', ')})${tx.forUpdate}`, chunk)) {
        byId.set(Number(row.banId), toHeld(row));
      }
    }
    return [...byId.values()];
  }

  /** Changes one record; `updated_at` is the time of the change. */
  async update(tx: Transaction, banId: number, changes: BanChanges, now: Date): Promise<void> {
    const entries = (Object.keys(changes) as Array<keyof BanChanges>).filter((key) => changes[key] !== undefined);
    const values = entries.map((key) => {
      const value = changes[key];
      return value instanceof Date ? tx.time(value) : typeof value === 'boolean' ? (value ? 1 : 0) : value;
    });
    await tx.run(`UPDATE community_banlist_bans SET ${[...entries.map((key) => `${CHANGE_COLUMNS[key]} = ?`), 'updated_at = ?'].join(', ')} WHERE ban_id = ?`, [...values, tx.time(now), banId]);
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
