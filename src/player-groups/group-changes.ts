import { byText } from '../votes/sender-ids';
import type { GroupChange, GroupRow } from './player-groups.repository';

/** Which group row a player has after new reports or an import. Pure. */

const sameTime = (a: Date | null, b: Date | null): boolean => (a === null ? b === null : b !== null && a.getTime() === b.getTime());

/**
 * The rows to write after newly stored reports: per player the latest report (the first one at
 * equal times), when it is later than the stored row. In player order.
 */
export function groupsAfterReports(current: ReadonlyMap<string, GroupRow>, changes: readonly GroupChange[]): GroupRow[] {
  const latest = new Map<string, GroupChange>();
  for (const change of changes) {
    const seen = latest.get(change.uuid);
    if (!seen || change.at > seen.at) {
      latest.set(change.uuid, change);
    }
  }
  const result: GroupRow[] = [];
  for (const change of latest.values()) {
    const stored = current.get(change.uuid);
    if (stored && stored.reportedAt >= change.at) {
      continue;
    }
    result.push({ uuid: change.uuid, group: change.group, expiresAt: change.expiresAt, reportedAt: change.at, origin: 'game-server' });
  }
  return result.sort((a, b) => byText(a.uuid, b.uuid));
}

/** An imported group: `at` is the source row's time (null when it has none). */
export interface ImportedGroup {
  uuid: string;
  group: string;
  expiresAt: Date | null;
  at: Date | null;
}

/**
 * The rows to write from imported groups: an import replaces none or an imported row (a rerun),
 * never one the game server reported; the last row of a player wins; unchanged rows are left out.
 * A row without a time is reported at `now` (the source is the state at the import), or keeps the
 * time an earlier import gave it. In player order.
 */
export function groupsAfterImport(current: ReadonlyMap<string, GroupRow>, rows: readonly ImportedGroup[], now: Date): GroupRow[] {
  const last = new Map<string, ImportedGroup>();
  for (const row of rows) {
    last.set(row.uuid, row);
  }
  const result: GroupRow[] = [];
  for (const row of last.values()) {
    const stored = current.get(row.uuid);
    if (stored && stored.origin !== 'original') {
      continue;
    }
    const reportedAt = row.at ?? (stored && stored.group === row.group ? stored.reportedAt : now);
    if (stored && stored.group === row.group && sameTime(stored.expiresAt, row.expiresAt) && sameTime(stored.reportedAt, reportedAt)) {
      continue;
    }
    result.push({ uuid: row.uuid, group: row.group, expiresAt: row.expiresAt, reportedAt, origin: 'original' });
  }
  return result.sort((a, b) => byText(a.uuid, b.uuid));
}
