import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/unit-of-work';
import { In } from 'typeorm';
import { isUniqueViolation } from '../database/database-errors';
import { SqlReader } from '../database/sql-reader';
import { dateOf, isoTime } from '../database/transformers';
import { BanlistBan } from './banlist-ban.entity';
import { BanlistPlayer } from './banlist-player.entity';
import { BanlistSyncRun, SyncTrigger } from './banlist-sync-run.entity';
import type { BanView, BanlistUserView, SyncSummary } from './banlist.view';
import { SyncLease } from './sync-lease.entity';
import { BanType, CLEAN_REPUTATION, UpstreamPlayer } from './upstream-player';

/** A `banlist_players` row as the lookup selects it: raw driver values (DOUBLE may be a string, DATETIME text or a Date). */
export interface BanlistPlayerRow {
  uuid: string;
  reputation: number | string;
  syncedAt: Date | string;
}

/** One of a player's bans, as the lookup selects it (mysql2 may hand BIGINT back as a string). */
export interface BanIdRow {
  banId: number | string;
  type: BanType;
}

/**
 * A `banlist_bans` row joined with our current game id of the player (`currentMcid`: players with a
 * login record only) and the upstream's name of the player (`upstreamName`).
 */
export interface BanRow {
  banId: number | string;
  playerUuid: string;
  type: BanType;
  reason: string;
  server: string | null;
  bannedBy: string | null;
  lostRep: number | string | null;
  bannedAt: Date | string;
  syncedAt: Date | string;
  currentMcid: string | null;
  upstreamName: string | null;
}

interface SyncRunRow {
  players: number | string;
  updated: number | string;
  failed: number | string;
  removedBans: number | string;
  startedAt: Date | string;
  finishedAt: Date | string;
}

/** A lease as stored: free when `holder` is null or `expiresAt` has passed. */
export interface LeaseRecord {
  holder: string | null;
  expiresAt: Date | null;
}

const PLAYER_SQL = 'SELECT uuid, reputation, synced_at AS syncedAt FROM banlist_players WHERE uuid = ?';
// Served by IDX_banlist_bans_player.
const PLAYER_BANS_SQL = 'SELECT ban_id AS banId, type FROM banlist_bans WHERE player_uuid = ?';
// One statement: the ban by primary key, our current game id (players with a login record only) and the upstream's name.
const BAN_SQL =
  'SELECT ban.ban_id AS banId, ban.player_uuid AS playerUuid, ban.type, ban.reason, ban.server, ban.banned_by AS bannedBy, ' +
  'ban.lost_rep AS lostRep, ban.banned_at AS bannedAt, ban.synced_at AS syncedAt, known.mcid AS currentMcid, mirrored.upstream_name AS upstreamName ' +
  'FROM banlist_bans ban ' +
  'LEFT JOIN players known ON known.uuid = ban.player_uuid AND known.first_login IS NOT NULL ' +
  'LEFT JOIN banlist_players mirrored ON mirrored.uuid = ban.player_uuid ' +
  'WHERE ban.ban_id = ?';
const KNOWN_PLAYERS_SQL = 'SELECT uuid FROM players WHERE first_login IS NOT NULL ORDER BY uuid ASC';
const LAST_RUN_SQL =
  'SELECT players, updated, failed, removed_bans AS removedBans, started_at AS startedAt, finished_at AS finishedAt ' +
  'FROM banlist_sync_runs ORDER BY finished_at DESC, id DESC LIMIT 1';
const LEASE_SQL = 'SELECT holder, expires_at AS expiresAt FROM sync_leases WHERE name = ?';

export function toBanlistUserView(player: BanlistPlayerRow, bans: readonly BanIdRow[]): BanlistUserView {
  const globalIds: number[] = [];
  const localIds: number[] = [];
  for (const ban of bans) {
    if (ban.type === 'global') {
      globalIds.push(Number(ban.banId));
    } else if (ban.type === 'local') {
      localIds.push(Number(ban.banId));
    }
  }
  globalIds.sort((a, b) => a - b);
  localIds.sort((a, b) => a - b);
  return {
    uuid: player.uuid,
    reputation: Number(player.reputation),
    global: globalIds.length,
    globalIds,
    local: localIds.length,
    localIds,
    syncedAt: isoTime(player.syncedAt)!,
  };
}

/** `mcid`: our current game id of the player from login records, else the upstream's name. */
export function toBanView(ban: BanRow): BanView {
  return {
    banId: Number(ban.banId),
    uuid: ban.playerUuid,
    mcid: ban.currentMcid ?? ban.upstreamName ?? null,
    bannedBy: ban.bannedBy,
    reason: ban.reason,
    server: ban.server,
    type: ban.type,
    lostRep: ban.lostRep === null ? null : Number(ban.lostRep),
    bannedAt: isoTime(ban.bannedAt)!,
    syncedAt: isoTime(ban.syncedAt)!,
  };
}

function toSyncSummary(row: SyncRunRow): SyncSummary {
  return {
    players: Number(row.players),
    updated: Number(row.updated),
    failed: Number(row.failed),
    removedBans: Number(row.removedBans),
    startedAt: isoTime(row.startedAt)!,
    finishedAt: isoTime(row.finishedAt)!,
  };
}

/** The ban-list mirror: mirrored players and bans, the record of sync runs, and the sync lease. */
@Injectable()
export class BanlistRepository {
  constructor(private readonly reader: SqlReader) {}

  async getUser(uuid: string): Promise<BanlistUserView | null> {
    const player = await this.reader.one<BanlistPlayerRow>(PLAYER_SQL, [uuid]);
    return player ? toBanlistUserView(player, await this.reader.all<BanIdRow>(PLAYER_BANS_SQL, [uuid])) : null;
  }

  async getBan(banId: number): Promise<BanView | null> {
    const ban = await this.reader.one<BanRow>(BAN_SQL, [banId]);
    return ban ? toBanView(ban) : null;
  }

  /** Every player that exists for `/users` (has a login record). */
  async getKnownPlayerUuids(): Promise<string[]> {
    return (await this.reader.all<{ uuid: string }>(KNOWN_PLAYERS_SQL)).map((row) => row.uuid);
  }

  /**
   * Replaces a player's mirrored data (`null`: the upstream has no record, so a clean one).
   * Returns how many of the player's bans were lifted and removed.
   */
  async replacePlayer(tx: Transaction, uuid: string, upstream: UpstreamPlayer | null, syncedAt: Date): Promise<number> {
    await tx.upsert(BanlistPlayer, { uuid, upstreamName: upstream?.name ?? null, reputation: upstream?.reputation ?? CLEAN_REPUTATION, syncedAt }, ['uuid']);
    const incoming = upstream?.bans ?? [];
    const keep = new Set(incoming.map((ban) => ban.banId));
    const current = await tx.find(BanlistBan, { select: { banId: true }, where: { playerUuid: uuid } });
    const lifted = current.map((ban) => ban.banId).filter((banId) => !keep.has(banId));
    if (lifted.length > 0) {
      await tx.delete(BanlistBan, { banId: In(lifted) });
    }
    if (incoming.length > 0) {
      // An upsert on the upstream id: a ban the upstream now files under this player moves here.
      await tx.upsert(
        BanlistBan,
        incoming.map((ban) => ({ ...ban, playerUuid: uuid, syncedAt })),
        ['banId'],
      );
    }
    return lifted.length;
  }

  async insertRun(tx: Transaction, trigger: SyncTrigger, summary: SyncSummary): Promise<void> {
    await tx.insert(BanlistSyncRun, {
      triggeredBy: trigger,
      players: summary.players,
      updated: summary.updated,
      failed: summary.failed,
      removedBans: summary.removedBans,
      startedAt: new Date(summary.startedAt),
      finishedAt: new Date(summary.finishedAt),
    });
  }

  async getLastRun(): Promise<SyncSummary | null> {
    const row = await this.reader.one<SyncRunRow>(LAST_RUN_SQL);
    return row ? toSyncSummary(row) : null;
  }

  /** Takes a free or expired lease in one conditional UPDATE (the database decides the race). */
  async takeLease(tx: Transaction, name: string, holder: string, expiresAt: Date, now: Date): Promise<boolean> {
    const result = await tx
      .createQueryBuilder()
      .update(SyncLease)
      .set({ holder, expiresAt })
      .where('name = :name', { name })
      .andWhere('(holder IS NULL OR expires_at IS NULL OR expires_at < :now)', { now })
      .execute();
    return result.affected === 1;
  }

  /** Creates a lease row already held; false when the row exists. */
  async createLease(tx: Transaction, name: string, holder: string, expiresAt: Date): Promise<boolean> {
    try {
      await tx.insert(SyncLease, { name, holder, expiresAt });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return false;
      }
      throw error;
    }
  }

  /** Sets the expiry of a lease still held by `holder` (null `expiresAt` with null `to` releases it). */
  async updateHeldLease(tx: Transaction, name: string, holder: string, to: { holder: string | null; expiresAt: Date | null }): Promise<boolean> {
    const result = await tx.createQueryBuilder().update(SyncLease).set(to).where('name = :name AND holder = :holder', { name, holder }).execute();
    return result.affected === 1;
  }

  async getLease(name: string): Promise<LeaseRecord | null> {
    const row = await this.reader.one<{ holder: string | null; expiresAt: Date | string | null }>(LEASE_SQL, [name]);
    return row ? { holder: row.holder, expiresAt: row.expiresAt === null ? null : dateOf(row.expiresAt) } : null;
  }
}
