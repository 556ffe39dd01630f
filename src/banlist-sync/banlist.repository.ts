import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import { DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { type DbTime, isoTime } from '../database/transformers';
import type { BanView, BanlistUserView } from './banlist.view';
import { BanType, CLEAN_REPUTATION, UpstreamPlayer } from './upstream-player';

/** One of a player's mirrored bans (the moderation API's player page). */
export interface MirroredBan {
  banId: number;
  type: BanType;
  reason: string;
  server: string | null;
  bannedAt: string;
}

/** A `banlist_players` row as the lookup selects it. */
export interface BanlistPlayerRow {
  uuid: string;
  reputation: number;
  syncedAt: DbTime;
}

/** One of a player's bans, as the lookup selects it. */
export interface BanIdRow {
  banId: number;
  type: BanType;
}

/**
 * A `banlist_bans` row joined with our current game id of the player (`currentMcid`: players with a
 * login record only) and the upstream's name of the player (`upstreamName`).
 */
export interface BanRow {
  banId: number;
  playerUuid: string;
  type: BanType;
  reason: string;
  server: string | null;
  bannedBy: string | null;
  lostRep: number | null;
  bannedAt: DbTime;
  syncedAt: DbTime;
  currentMcid: string | null;
  upstreamName: string | null;
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
// Served by IDX_banlist_bans_player: a player's mirrored bans, newest first (the moderation API).
const BANS_OF_PLAYER_SQL = 'SELECT ban_id AS banId, type, reason, server, banned_at AS bannedAt FROM banlist_bans WHERE player_uuid = ? ORDER BY banned_at DESC, ban_id DESC';
const KNOWN_PLAYERS_SQL = 'SELECT uuid FROM players WHERE first_login IS NOT NULL ORDER BY uuid ASC';
const UPSERT_PLAYER_SQL = {
  mysql:
    'INSERT INTO banlist_players (uuid, upstream_name, reputation, synced_at) VALUES (?, ?, ?, ?) ' +
    'ON DUPLICATE KEY UPDATE upstream_name = VALUES(upstream_name), reputation = VALUES(reputation), synced_at = VALUES(synced_at)',
  sqlite:
    'INSERT INTO banlist_players (uuid, upstream_name, reputation, synced_at) VALUES (?, ?, ?, ?) ' +
    'ON CONFLICT (uuid) DO UPDATE SET upstream_name = excluded.upstream_name, reputation = excluded.reputation, synced_at = excluded.synced_at',
};
const BAN_COLUMNS = '(ban_id, player_uuid, type, reason, server, banned_by, lost_rep, banned_at, synced_at)';
const BAN_UPDATES = ['player_uuid', 'type', 'reason', 'server', 'banned_by', 'lost_rep', 'banned_at', 'synced_at'];
const UPSERT_BANS_TAIL = {
  mysql: `ON DUPLICATE KEY UPDATE ${BAN_UPDATES.map((column) => `${column} = VALUES(${column})`).join(', ')}`,
  sqlite: `ON CONFLICT (ban_id) DO UPDATE SET ${BAN_UPDATES.map((column) => `${column} = excluded.${column}`).join(', ')}`,
};

export function toBanlistUserView(player: BanlistPlayerRow, bans: readonly BanIdRow[]): BanlistUserView {
  const globalIds: number[] = [];
  const localIds: number[] = [];
  for (const ban of bans) {
    if (ban.type === 'global') {
      globalIds.push(ban.banId);
    } else if (ban.type === 'local') {
      localIds.push(ban.banId);
    }
  }
  globalIds.sort((a, b) => a - b);
  localIds.sort((a, b) => a - b);
  return {
    uuid: player.uuid,
    reputation: player.reputation,
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
    banId: ban.banId,
    uuid: ban.playerUuid,
    mcid: ban.currentMcid ?? ban.upstreamName ?? null,
    bannedBy: ban.bannedBy,
    reason: ban.reason,
    server: ban.server,
    type: ban.type,
    lostRep: ban.lostRep,
    bannedAt: isoTime(ban.bannedAt)!,
    syncedAt: isoTime(ban.syncedAt)!,
  };
}


/**
 * The ban-list mirror, one aggregate: `banlist_players` and `banlist_bans`, written together by
 * `replacePlayer` (a player's bans are replaced with the player, in one transaction) and by
 * nothing else; every write bumps `banlist`. The record of sync runs and the sync lease have their
 * own repositories (sync-runs.repository.ts, sync-leases.repository.ts).
 */
@Injectable()
export class BanlistRepository {
  /** `GET /users/banlist/{uuid}` is a hot read; the mirror changes only in sync runs (topic `banlist`). */
  private readonly users: ReadCache<BanlistUserView | null>;

  constructor(
    private readonly reader: SqlReader,
    private readonly versions: DataVersions,
  ) {
    this.users = new ReadCache(versions, ['banlist']);
  }

  /** The mirrored data of a player (cached; the view is shared, not to be mutated). */
  getUser(uuid: string): Promise<BanlistUserView | null> {
    return this.users.get(uuid, async () => {
      const player = await this.reader.one<BanlistPlayerRow>(PLAYER_SQL, [uuid]);
      return player ? toBanlistUserView(player, await this.reader.all<BanIdRow>(PLAYER_BANS_SQL, [uuid])) : null;
    });
  }

  async getBan(banId: number): Promise<BanView | null> {
    const ban = await this.reader.one<BanRow>(BAN_SQL, [banId]);
    return ban ? toBanView(ban) : null;
  }

  /** A player's bans as mirrored now (a ban the upstream no longer lists is not here), newest first. */
  async getBansOfPlayer(uuid: string): Promise<MirroredBan[]> {
    const rows = await this.reader.all<{ banId: number; type: BanType; reason: string; server: string | null; bannedAt: DbTime }>(BANS_OF_PLAYER_SQL, [uuid]);
    return rows.map((row) => ({ banId: Number(row.banId), type: row.type, reason: row.reason, server: row.server, bannedAt: isoTime(row.bannedAt)! }));
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
    const dialect = tx.isMysql ? 'mysql' : 'sqlite';
    const synced = tx.time(syncedAt);
    await this.versions.bump(tx, 'banlist');
    await tx.run(UPSERT_PLAYER_SQL[dialect], [uuid, upstream?.name ?? null, upstream?.reputation ?? CLEAN_REPUTATION, synced]);
    const incoming = upstream?.bans ?? [];
    const keep = new Set(incoming.map((ban) => ban.banId));
    const current = await tx.all<{ banId: number }>('SELECT ban_id AS banId FROM banlist_bans WHERE player_uuid = ?', [uuid]);
    const lifted = current.map((ban) => ban.banId).filter((banId) => !keep.has(banId));
    if (lifted.length > 0) {
      await tx.run(`DELETE FROM banlist_bans WHERE ban_id IN (${lifted.map(() => '?').join(', ')})`, lifted);
    }
    if (incoming.length > 0) {
      // An upsert on the upstream id: a ban the upstream now files under this player moves here.
      await tx.run(
        `INSERT INTO banlist_bans ${BAN_COLUMNS} VALUES ${incoming.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ${UPSERT_BANS_TAIL[dialect]}`,
        incoming.flatMap((ban) => [ban.banId, uuid, ban.type, ban.reason, ban.server, ban.bannedBy, ban.lostRep, tx.time(ban.bannedAt), synced]),
      );
    }
    return lifted.length;
  }

}
