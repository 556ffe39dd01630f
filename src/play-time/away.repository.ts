import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';

export interface NewAwayRecord {
  sourceId: string;
  uuid: string;
  seconds: number;
  at: Date | null;
}

const CHUNK = 500;

// Served by the primary key.
const TOTAL_SQL = 'SELECT seconds FROM away_totals WHERE player_uuid = ?';

/** The one owner of `away_records` and `away_totals` (each record added to its player's total as it is stored). */
@Injectable()
export class AwayRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Which of these ids are stored already. */
  async getStoredIds(tx: Transaction, origin: string, sourceIds: readonly string[]): Promise<Set<string>> {
    const stored = new Set<string>();
    for (const chunk of chunks([...new Set(sourceIds)].sort(), CHUNK)) {
      const rows = await tx.all<{ sourceId: string }>(`SELECT source_id AS sourceId FROM away_records WHERE origin = ? AND source_id IN (${chunk.map(() => '?').join(', ')})`, [
        origin,
        ...chunk,
      ]);
      for (const row of rows) {
        stored.add(row.sourceId);
      }
    }
    return stored;
  }

  /** Inserts records; a concurrent insert of the same id fails on the unique key (the caller runs the batch again). */
  async insert(tx: Transaction, origin: string, records: readonly NewAwayRecord[], now: Date): Promise<void> {
    const created = tx.time(now);
    for (const chunk of chunks(records, CHUNK)) {
      await tx.run(
        `INSERT INTO away_records (origin, source_id, player_uuid, seconds, at, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((record) => [origin, record.sourceId, record.uuid, record.seconds, record.at === null ? null : tx.time(record.at), created]),
      );
    }
  }

  /** Adds seconds to players' totals (one row per player in `totals`), sorted so concurrent batches lock in one order. */
  async addTotals(tx: Transaction, totals: ReadonlyMap<string, number>): Promise<void> {
    const upsert = tx.isMysql ? 'ON DUPLICATE KEY UPDATE seconds = away_totals.seconds + VALUES(seconds)' : 'ON CONFLICT (player_uuid) DO UPDATE SET seconds = away_totals.seconds + excluded.seconds';
    for (const chunk of chunks([...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), CHUNK)) {
      await tx.run(`INSERT INTO away_totals (player_uuid, seconds) VALUES ${chunk.map(() => '(?, ?)').join(', ')} ${upsert}`, chunk.flat());
    }
  }

  /** A player's away time in total (0 without any). */
  async getTotal(uuid: string): Promise<number> {
    const row = await this.reader.one<{ seconds: number | string }>(TOTAL_SQL, [uuid]);
    return row ? Number(row.seconds) : 0;
  }
}
