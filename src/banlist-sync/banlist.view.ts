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
  /**
   * Present only when the circuit breaker stopped the run (docs/reliability.md): the upstream
   * timed out this many times in a row; the players not fetched count as failed.
   */
  stoppedAfterTimeouts?: number;
}
