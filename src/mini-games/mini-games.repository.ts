import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import { placeOnLadder } from './periodmatch-score';

export type ResultOrigin = 'game-server' | 'original';

/** A result as every writer stores it. */
export interface NewResult {
  sourceId: string;
  uuid: string;
  mcid: string;
  success: number;
  failure: number;
  matchTime: number;
  realMatchTime: number;
  calcMatchTime: number;
  status: boolean;
  score: number;
  startTime: Date;
  endTime: Date;
}

/** A result with its place in its category. */
export interface RankedResult {
  id: number;
  mcid: string;
  success: number;
  failure: number;
  matchTime: number;
  realMatchTime: number;
  calcMatchTime: number;
  status: boolean;
  rank: number;
  startTime: Date;
  endTime: Date;
}

interface ResultRow {
  id: number;
  mcid: string;
  success: number;
  failure: number;
  matchTime: number;
  realMatchTime: number;
  calcMatchTime: number;
  status: number | boolean;
  score: number | string;
  startTime: DbTime;
  endTime: DbTime;
}

// IDX_minigame_results_player for the player's newest.
const RECENT_SQL =
  'SELECT id, mcid, success, failure, match_time AS matchTime, real_match_time AS realMatchTime, calc_match_time AS calcMatchTime, ' +
  'status, score, start_time AS startTime, end_time AS endTime FROM minigame_results WHERE player_uuid = ? ORDER BY end_time DESC, id DESC LIMIT ?';
// A category's scores, highest first, read along IDX_minigame_results_rank (match_time, score).
const LADDER_SQL = 'SELECT score FROM minigame_results WHERE match_time = ? ORDER BY score DESC';
const INSERT_COLUMNS = '(origin, source_id, player_uuid, mcid, success, failure, match_time, real_match_time, calc_match_time, status, score, start_time, end_time)';
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
/** 13 parameters a row. */
const INSERT_CHUNK = 500;

function toResult(row: ResultRow, rank: number): RankedResult {
  return {
    id: Number(row.id),
    mcid: row.mcid,
    success: Number(row.success),
    failure: Number(row.failure),
    matchTime: Number(row.matchTime),
    realMatchTime: Number(row.realMatchTime),
    calcMatchTime: Number(row.calcMatchTime),
    status: Boolean(Number(row.status)),
    rank,
    startTime: dateOf(row.startTime),
    endTime: dateOf(row.endTime),
  };
}

/**
 * Every query of `minigame_results`, and its one writer. A place in a category is a binary search
 * of the category's ladder of scores, cached until a result is stored (topic `mini-games`): a
 * count over the category per result cost milliseconds once a category held thousands.
 */
@Injectable()
export class MiniGamesRepository {
  private readonly ladders: ReadCache<Float64Array>;

  constructor(
    private readonly reader: SqlReader,
    private readonly versions: DataVersions,
  ) {
    this.ladders = new ReadCache(versions, ['mini-games']);
  }

  /** The player's newest results (by end time), each with its place in its category. */
  async recentForPlayer(uuid: string, limit: number): Promise<RankedResult[]> {
    const rows = await this.reader.all<ResultRow>(RECENT_SQL, [uuid, limit]);
    const categories = [...new Set(rows.map((row) => Number(row.matchTime)))];
    const ladders = new Map(await Promise.all(categories.map(async (category) => [category, await this.ladder(category)] as const)));
    return rows.map((row) => toResult(row, placeOnLadder(ladders.get(Number(row.matchTime)) ?? new Float64Array(0), Number(row.score))));
  }

  /** A category's scores, highest first. Cached; not to be mutated. */
  private ladder(category: number): Promise<Float64Array> {
    return this.ladders.get(String(category), async () => Float64Array.from((await this.reader.all<{ score: number | string }>(LADDER_SQL, [category])).map((row) => Number(row.score))));
  }

  /** Stores results, skipping those whose (origin, source id) is stored already; how many were new. */
  async insertMany(tx: Transaction, origin: ResultOrigin, results: readonly NewResult[]): Promise<number> {
    let inserted = 0;
    for (const chunk of chunks(results, INSERT_CHUNK)) {
      const { affectedRows } = await tx.run(
        `${tx.insertIgnore} INTO minigame_results ${INSERT_COLUMNS} VALUES ${chunk.map(() => ROW).join(', ')}`,
        chunk.flatMap((result) => [
          origin,
          result.sourceId,
          result.uuid,
          result.mcid,
          result.success,
          result.failure,
          result.matchTime,
          result.realMatchTime,
          result.calcMatchTime,
          result.status ? 1 : 0,
          result.score,
          tx.time(result.startTime),
          tx.time(result.endTime),
        ]),
      );
      inserted += affectedRows;
    }
    if (inserted > 0) {
      await this.versions.bump(tx, 'mini-games');
    }
    return inserted;
  }
}
