import type { BanlistBan } from './banlist-ban.entity';
import type { BanlistPlayer } from './banlist-player.entity';
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

export function toBanlistUserView(player: BanlistPlayer, bans: Pick<BanlistBan, 'banId' | 'type'>[]): BanlistUserView {
  const idsOf = (type: BanType): number[] =>
    bans
      .filter((ban) => ban.type === type)
      .map((ban) => ban.banId)
      .sort((a, b) => a - b);
  const globalIds = idsOf('global');
  const localIds = idsOf('local');
  return {
    uuid: player.uuid,
    reputation: player.reputation,
    global: globalIds.length,
    globalIds,
    local: localIds.length,
    localIds,
    syncedAt: player.syncedAt.toISOString(),
  };
}

/** `mcid`: our current game id of the player from login records, else the upstream's name. */
export function toBanView(ban: BanlistBan, currentMcid: string | null, upstreamName: string | null): BanView {
  return {
    banId: ban.banId,
    uuid: ban.playerUuid,
    mcid: currentMcid ?? upstreamName,
    bannedBy: ban.bannedBy,
    reason: ban.reason,
    server: ban.server,
    type: ban.type,
    lostRep: ban.lostRep,
    bannedAt: ban.bannedAt.toISOString(),
    syncedAt: ban.syncedAt.toISOString(),
  };
}
