import { isoTime } from '../database/transformers';
import type { BanType } from './upstream-player';

/** Ban-list user data (contract section 4). */
export interface BanlistUserView {
  uuid: string;
  reputation: number;
  global: number;
  globalIds: number[];
  local: number;
  localIds: number[];
  syncedAt: string;
}

/** Ban record (contract section 4). */
export interface BanView {
  banId: number;
  uuid: string;
  mcid: string | null;
  bannedBy: string | null;
  reason: string;
  server: string | null;
  type: BanType;
  lostRep: number | null;
  bannedAt: string;
  syncedAt: string;
}

export interface SyncSummary {
  players: number;
  updated: number;
  failed: number;
  removedBans: number;
  startedAt: string;
  finishedAt: string;
}

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
