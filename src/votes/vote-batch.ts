import { byText } from './sender-ids';

/** Preparing votes for storage: counts per player and site, and what they change in the ranks. Pure. */

export interface VoteInput {
  id: string;
  uuid: string;
  site: string;
  votedAt: Date;
}

/** Votes added to one player's count on one site. */
export interface VoteTally {
  uuid: string;
  site: string;
  added: number;
  lastVotedAt: Date;
}

/** One player's count on one site before and after a write. */
export interface CountChange {
  site: string;
  before: number;
  after: number;
}

/** How many players more (or fewer) have exactly `voteCount` votes on `site`. */
export interface CountLevelDelta {
  site: string;
  voteCount: number;
  delta: number;
}

/** One tally per (player, site), in (player, site) order. */
export function tallyVotes(votes: readonly VoteInput[]): VoteTally[] {
  const tallies = new Map<string, VoteTally>();
  for (const vote of votes) {
    const key = `${vote.uuid}|${vote.site}`;
    const tally = tallies.get(key);
    if (!tally) {
      tallies.set(key, { uuid: vote.uuid, site: vote.site, added: 1, lastVotedAt: vote.votedAt });
      continue;
    }
    tally.added += 1;
    if (vote.votedAt > tally.lastVotedAt) {
      tally.lastVotedAt = vote.votedAt;
    }
  }
  return [...tallies.values()].sort((a, b) => byText(a.uuid, b.uuid) || byText(a.site, b.site));
}

/**
 * What the changes do to the count levels: one player fewer at each old count, one more at each
 * new count. Zero counts are not kept (no one has fewer than 0 votes, so they never outrank
 * anyone); levels whose changes cancel out are left out. In (site, count) order.
 */
export function countLevelDeltas(changes: readonly CountChange[]): CountLevelDelta[] {
  const deltas = new Map<string, CountLevelDelta>();
  const add = (site: string, voteCount: number, delta: number): void => {
    if (voteCount <= 0) {
      return;
    }
    const key = `${site}|${voteCount}`;
    const level = deltas.get(key) ?? { site, voteCount, delta: 0 };
    level.delta += delta;
    deltas.set(key, level);
  };
  for (const change of changes) {
    if (change.before !== change.after) {
      add(change.site, change.before, -1);
      add(change.site, change.after, 1);
    }
  }
  return [...deltas.values()].filter((level) => level.delta !== 0).sort((a, b) => byText(a.site, b.site) || a.voteCount - b.voteCount);
}

/** A player's count on one site, as stored and as written. */
export interface Total {
  uuid: string;
  site: string;
  importedCount: number;
  recordedCount: number;
  voteCount: number;
  lastVotedAt: Date | null;
}

/** An imported total of one player on one site (the source's count replaces the imported part). */
export interface ImportedTotal {
  uuid: string;
  site: string;
  count: number;
  lastVotedAt: Date | null;
}

const totalKey = (uuid: string, site: string): string => `${uuid}|${site}`;

function later(a: Date | null, b: Date | null): Date | null {
  if (a === null) {
    return b;
  }
  return b === null || a >= b ? a : b;
}

/** The totals after newly stored votes (tallies in (player, site) order), and the count changes. */
export function totalsAfterVotes(stored: readonly Total[], tallies: readonly VoteTally[]): { totals: Total[]; changes: CountChange[] } {
  const byKey = new Map(stored.map((total) => [totalKey(total.uuid, total.site), total]));
  const totals: Total[] = [];
  const changes: CountChange[] = [];
  for (const tally of tallies) {
    const before = byKey.get(totalKey(tally.uuid, tally.site));
    const recordedCount = (before?.recordedCount ?? 0) + tally.added;
    const importedCount = before?.importedCount ?? 0;
    const total = { uuid: tally.uuid, site: tally.site, importedCount, recordedCount, voteCount: importedCount + recordedCount, lastVotedAt: later(before?.lastVotedAt ?? null, tally.lastVotedAt) };
    totals.push(total);
    changes.push({ site: tally.site, before: before?.voteCount ?? 0, after: total.voteCount });
  }
  return { totals, changes };
}

/**
 * The totals after an import: the imported part replaced (a rerun replaces, never adds), the
 * recorded votes kept; the last row of a (player, site) wins; unchanged totals are left out.
 * In (player, site) order.
 */
export function totalsAfterImport(stored: readonly Total[], rows: readonly ImportedTotal[]): { totals: Total[]; changes: CountChange[] } {
  const lastRows = new Map<string, ImportedTotal>();
  for (const row of rows) {
    lastRows.set(totalKey(row.uuid, row.site), row);
  }
  const byKey = new Map(stored.map((total) => [totalKey(total.uuid, total.site), total]));
  const totals: Total[] = [];
  const changes: CountChange[] = [];
  const ordered = [...lastRows.values()].sort((a, b) => byText(a.uuid, b.uuid) || byText(a.site, b.site));
  for (const row of ordered) {
    const before = byKey.get(totalKey(row.uuid, row.site));
    const recordedCount = before?.recordedCount ?? 0;
    const lastVotedAt = later(before?.lastVotedAt ?? null, row.lastVotedAt);
    if (before && before.importedCount === row.count && before.lastVotedAt?.getTime() === lastVotedAt?.getTime()) {
      continue;
    }
    const total = { uuid: row.uuid, site: row.site, importedCount: row.count, recordedCount, voteCount: row.count + recordedCount, lastVotedAt };
    totals.push(total);
    changes.push({ site: row.site, before: before?.voteCount ?? 0, after: total.voteCount });
  }
  return { totals, changes };
}
