import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';

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
  rank: number | string;
  startTime: DbTime;
  endTime: DbTime;
}

// IDX_minigame_results_player for the player's newest; each place is one count over a range of
// IDX_minigame_results_rank (match_time, score).
const RECENT_SQL =
  'SELECT r.id, r.mcid, r.success, r.failure, r.match_time AS matchTime, r.real_match_time AS realMatchTime, r.calc_match_time AS calcMatchTime, ' +
  'r.status, r.start_time AS startTime, r.end_time AS endTime, ' +
  '1 + (SELECT COUNT(*) FROM minigame_results o WHERE o.match_time = r.match_time AND o.score > r.score) AS `rank` ' +
  'FROM minigame_results r WHERE r.player_uuid = ? ORDER BY r.end_time DESC, r.id DESC LIMIT ?';
const INSERT_COLUMNS = '(origin, source_id, player_uuid, mcid, success, failure, match_time, real_match_time, calc_match_time, status, score, start_time, end_time)';
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
/** 13 parameters a row. */
const INSERT_CHUNK = 500;

function toResult(row: ResultRow): RankedResult {
  return {
    id: Number(row.id),
    mcid: row.mcid,
    success: Number(row.success),
    failure: Number(row.failure),
    matchTime: Number(row.matchTime),
    realMatchTime: Number(row.realMatchTime),
    calcMatchTime: Number(row.calcMatchTime),
    status: Boolean(Number(row.status)),
    rank: Number(row.rank),
    startTime: dateOf(row.startTime),
    endTime: dateOf(row.endTime),
  };
}

/** Every query of `minigame_results`, and its one writer. */
@Injectable()
export class MiniGamesRepository {
  constructor(private readonly reader: SqlReader) {}

  /** The player's newest results (by end time), each with its place in its category. */
  async recentForPlayer(uuid: string, limit: number): Promise<RankedResult[]> {
    return (await this.reader.all<ResultRow>(RECENT_SQL, [uuid, limit])).map(toResult);
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
    return inserted;
  }
}
