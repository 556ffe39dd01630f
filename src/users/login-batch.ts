import type { PlayerLoginSummary } from '../players/player-login-summary';

/** Preparing a batch of logins for storage: cutoff, repeats, one summary per player. Pure. */

export interface LoginInput {
  uuid: string;
  mcid: string;
  loggedInAt: Date;
  permission: string | null;
}

export interface PreparedLoginBatch {
  /** Records from the cutoff on, uuid lower-cased, repeats inside the batch removed (first one kept). */
  records: LoginInput[];
  beforeCutoff: number;
  repeatsInBatch: number;
  players: PlayerLoginSummary[];
}

export function prepareLoginBatch(items: readonly LoginInput[], cutoff: Date): PreparedLoginBatch {
  const seen = new Set<string>();
  const records: LoginInput[] = [];
  const players = new Map<string, PlayerLoginSummary>();
  let beforeCutoff = 0;
  let repeatsInBatch = 0;
  for (const item of items) {
    if (item.loggedInAt.getTime() < cutoff.getTime()) {
      beforeCutoff += 1;
      continue;
    }
    const record = { ...item, uuid: item.uuid.toLowerCase() };
    const key = `${record.uuid}|${record.loggedInAt.getTime()}`;
    if (seen.has(key)) {
      repeatsInBatch += 1;
      continue;
    }
    seen.add(key);
    records.push(record);
    const summary = players.get(record.uuid);
    if (!summary) {
      players.set(record.uuid, { uuid: record.uuid, firstLogin: record.loggedInAt, latest: record });
      continue;
    }
    if (record.loggedInAt < summary.firstLogin) {
      summary.firstLogin = record.loggedInAt;
    }
    // Strictly later only: at equal times the record stored first (the earlier one) stays the latest.
    if (record.loggedInAt > summary.latest.loggedInAt) {
      summary.latest = record;
    }
  }
  return { records, beforeCutoff, repeatsInBatch, players: [...players.values()] };
}
