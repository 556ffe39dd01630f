import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { CountLevelDelta, Total, VoteInput } from './vote-batch';
import type { Origin } from './sender-ids';
import { type CountLevels, countLevelsOf } from './count-levels';

/** Rows per statement: at most 7 parameters each, far within SQLite's and MySQL's placeholder limits. */
const CHUNK = 500;

/** A player's counts on the two vote sites and their login text: one read of three primary keys. */
export interface VoteCountsRow {
  firstCount: number;
  secondCount: number;
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

// Three primary-key reads in one statement. A rank is not summed here over the count levels
// above: those range reads cost MariaDB three times this whole statement, and the levels change
// only when votes arrive, so they are cached (getCountLevels).
const COUNTS_SQL = `SELECT
  (SELECT vote_count FROM vote_totals WHERE player_uuid = ? AND site = ?) AS firstCount,
  (SELECT vote_count FROM vote_totals WHERE player_uuid = ? AND site = ?) AS secondCount,
  (SELECT login_text FROM login_texts WHERE player_uuid = ?) AS loginText`;

const LEVELS_SQL = 'SELECT vote_count AS voteCount, players FROM vote_count_players WHERE site = ?';

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * Votes, the totals per player and site, and the count levels the ranks read: the one owner of
 * these tables. Each site's levels are cached until they change (topic `votes`).
 */
@Injectable()
export class VotesRepository {
  private readonly levels: ReadCache<CountLevels>;

  constructor(
    private readonly reader: SqlReader,
    private readonly versions: DataVersions,
  ) {
    this.levels = new ReadCache(versions, ['votes']);
  }

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
    if (deltas.length === 0) {
      return;
    }
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
    // Last in the batch's transaction: the topic's row stays locked only until the commit.
    await this.versions.bump(tx, 'votes');
  }

  /** One player's counts on the two sites and login text (committed data); 0 for no votes. */
  async getCounts(uuid: string, [first, second]: readonly [string, string]): Promise<VoteCountsRow> {
    const row = await this.reader.one<{ firstCount: number | string | null; secondCount: number | string | null; loginText: string | null }>(COUNTS_SQL, [uuid, first, uuid, second, uuid]);
    return { firstCount: Number(row?.firstCount ?? 0), secondCount: Number(row?.secondCount ?? 0), loginText: row?.loginText ?? null };
  }

  /** A site's count levels (committed data), cached until a write moves a player between levels. Not to be mutated. */
  getCountLevels(site: string): Promise<CountLevels> {
    return this.levels.get(site, async () =>
      countLevelsOf((await this.reader.all<{ voteCount: number | string; players: number | string }>(LEVELS_SQL, [site])).map((row) => ({ voteCount: Number(row.voteCount), players: Number(row.players) }))),
    );
  }
}
