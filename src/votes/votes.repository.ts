import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { CountLevelDelta, Total, VoteInput } from './vote-batch';
import type { Origin } from './sender-ids';

/** Rows per statement: at most 7 parameters each, far within SQLite's and MySQL's placeholder limits. */
const CHUNK = 500;

/** A player's counts on the two sites, what they outrank, and the login text: the summary's one read. */
export interface VoteSummaryRow {
  firstCount: number;
  secondCount: number;
  firstAbove: number;
  secondAbove: number;
  loginText: string | null;
}

interface TotalRow {
  uuid: string;
  site: string;
  importedCount: number | string;
  recordedCount: number | string;
  voteCount: number | string;
  lastVotedAt: DbTime | null;
}

// The counts, then the players above each count: a sum over the few count levels above it
// (vote_count_players' primary key), never a count over every player.
const SUMMARY_SQL = `SELECT t.firstCount AS firstCount, t.secondCount AS secondCount, t.loginText AS loginText,
  (SELECT COALESCE(SUM(l.players), 0) FROM vote_count_players l WHERE l.site = ? AND l.vote_count > t.firstCount) AS firstAbove,
  (SELECT COALESCE(SUM(l.players), 0) FROM vote_count_players l WHERE l.site = ? AND l.vote_count > t.secondCount) AS secondAbove
FROM (SELECT
  COALESCE((SELECT vote_count FROM vote_totals WHERE player_uuid = ? AND site = ?), 0) AS firstCount,
  COALESCE((SELECT vote_count FROM vote_totals WHERE player_uuid = ? AND site = ?), 0) AS secondCount,
  (SELECT login_text FROM login_texts WHERE player_uuid = ?) AS loginText) t`;

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** Votes, the totals per player and site, and the count levels the ranks read: the one owner of these tables. */
@Injectable()
export class VotesRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Which of `sourceIds` are stored already for `origin`. */
  async getStoredVoteIds(tx: Transaction, origin: Origin, sourceIds: readonly string[]): Promise<Set<string>> {
    const stored = new Set<string>();
    for (const chunk of chunks(sourceIds, CHUNK)) {
      const rows = await tx.all<{ sourceId: string }>(`SELECT source_id AS sourceId FROM votes WHERE origin = ? AND source_id IN (${placeholders(chunk.length)})`, [origin, ...chunk]);
      for (const row of rows) {
        stored.add(row.sourceId);
      }
    }
    return stored;
  }

  /** Stores votes, skipping sender ids stored already; returns how many were new. */
  async insertVotes(tx: Transaction, origin: Origin, votes: readonly VoteInput[], createdAt: Date): Promise<number> {
    let inserted = 0;
    for (const chunk of chunks(votes, CHUNK)) {
      const { affectedRows } = await tx.run(
        `${tx.insertIgnore} INTO votes (origin, source_id, player_uuid, site, voted_at, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((vote) => [origin, vote.id, vote.uuid, vote.site, tx.time(vote.votedAt), tx.time(createdAt)]),
      );
      inserted += affectedRows;
    }
    return inserted;
  }

  /** The totals of `uuids` on every site, locked until the transaction ends (MySQL; SQLite's writes are serialised). */
  async lockTotals(tx: Transaction, uuids: readonly string[]): Promise<Total[]> {
    const result: Total[] = [];
    for (const chunk of chunks([...new Set(uuids)].sort(), CHUNK)) {
      const rows = await tx.all<TotalRow>(
        'SELECT player_uuid AS uuid, site, imported_count AS importedCount, recorded_count AS recordedCount, vote_count AS voteCount, last_voted_at AS lastVotedAt ' +
          `FROM vote_totals WHERE player_uuid IN (${placeholders(chunk.length)}) ORDER BY player_uuid, site${tx.forUpdate}`,
        chunk,
      );
      result.push(
        ...rows.map((row) => ({
          uuid: row.uuid,
          site: row.site,
          importedCount: Number(row.importedCount),
          recordedCount: Number(row.recordedCount),
          voteCount: Number(row.voteCount),
          lastVotedAt: row.lastVotedAt === null ? null : dateOf(row.lastVotedAt),
        })),
      );
    }
    return result;
  }

  /** Writes totals as given (created or replaced), in the order given. */
  async writeTotals(tx: Transaction, totals: readonly Total[]): Promise<void> {
    const assigned = ['imported_count', 'recorded_count', 'vote_count', 'last_voted_at'];
    const update = tx.isMysql
      ? `ON DUPLICATE KEY UPDATE ${assigned.map((column) => `${column} = VALUES(${column})`).join(', ')}`
      : `ON CONFLICT (player_uuid, site) DO UPDATE SET ${assigned.map((column) => `${column} = excluded.${column}`).join(', ')}`;
    for (const chunk of chunks(totals, CHUNK)) {
      await tx.run(
        `INSERT INTO vote_totals (player_uuid, site, imported_count, recorded_count, vote_count, last_voted_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} ${update}`,
        chunk.flatMap((total) => [total.uuid, total.site, total.importedCount, total.recordedCount, total.voteCount, total.lastVotedAt === null ? null : tx.time(total.lastVotedAt)]),
      );
    }
  }

  /** Moves players between count levels (deltas in (site, count) order); levels left empty are removed. */
  async applyCountLevels(tx: Transaction, deltas: readonly CountLevelDelta[]): Promise<void> {
    const update = tx.isMysql ? 'ON DUPLICATE KEY UPDATE players = players + VALUES(players)' : 'ON CONFLICT (site, vote_count) DO UPDATE SET players = vote_count_players.players + excluded.players';
    for (const chunk of chunks(deltas, CHUNK)) {
      await tx.run(
        `INSERT INTO vote_count_players (site, vote_count, players) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')} ${update}`,
        chunk.flatMap((level) => [level.site, level.voteCount, level.delta]),
      );
    }
    const emptied = deltas.filter((level) => level.delta < 0);
    for (const chunk of chunks(emptied, CHUNK)) {
      await tx.run(
        `DELETE FROM vote_count_players WHERE players <= 0 AND (${chunk.map(() => '(site = ? AND vote_count = ?)').join(' OR ')})`,
        chunk.flatMap((level) => [level.site, level.voteCount]),
      );
    }
  }

  /** The summary of one player on the two sites (committed data). */
  async getSummary(uuid: string, [first, second]: readonly [string, string]): Promise<VoteSummaryRow> {
    const row = await this.reader.one<{ firstCount: number | string; secondCount: number | string; firstAbove: number | string; secondAbove: number | string; loginText: string | null }>(
      SUMMARY_SQL,
      [first, second, uuid, first, uuid, second, uuid],
    );
    return {
      firstCount: Number(row?.firstCount ?? 0),
      secondCount: Number(row?.secondCount ?? 0),
      firstAbove: Number(row?.firstAbove ?? 0),
      secondAbove: Number(row?.secondAbove ?? 0),
      loginText: row?.loginText ?? null,
    };
  }
}
