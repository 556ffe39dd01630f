import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import { DAY_CAP_SECONDS } from './play-spans';

export interface DaySeconds {
  uuid: string;
  day: string;
  seconds: number;
}

export interface EraSeconds {
  uuid: string;
  era: string;
  seconds: number;
}

/** An imported total as stored: what a rerun replaces. */
export interface ImportedTotal {
  sourceId: string;
  uuid: string;
  era: string;
  seconds: number;
}

/** Rows per statement: 3 or 4 parameters each. */
const CHUNK = 500;

// Served by the primary key (player_uuid, day): one range seek.
const DAYS_SQL = 'SELECT day, seconds FROM play_days WHERE player_uuid = ? AND day >= ? AND day <= ? AND seconds > 0 ORDER BY day';
// Served by the primary key (player_uuid, era).
const ERAS_SQL = 'SELECT era, imported_seconds AS imported, recorded_seconds AS recorded FROM play_era_totals WHERE player_uuid = ?';

function byKey<T extends { uuid: string }>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * The precomputed play time the players site reads: `play_days` (seconds per player and day,
 * capped at a day), `play_era_totals` (imported and recorded seconds per player and era) and
 * `play_imported_totals` (the imported totals by source row). Writes add to them inside the
 * caller's transaction, sorted by key so that concurrent batches lock rows in one order.
 */
@Injectable()
export class PlayTotalsRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Adds seconds to days (one row per player and day in `rows`), each day capped at 86400. */
  async addDays(tx: Transaction, rows: readonly DaySeconds[]): Promise<void> {
    const upsert = tx.isMysql
      ? `ON DUPLICATE KEY UPDATE seconds = LEAST(play_days.seconds + VALUES(seconds), ${DAY_CAP_SECONDS})`
      : `ON CONFLICT (player_uuid, day) DO UPDATE SET seconds = MIN(play_days.seconds + excluded.seconds, ${DAY_CAP_SECONDS})`;
    for (const chunk of chunks(
      byKey(rows, (row) => `${row.uuid}|${row.day}`),
      CHUNK,
    )) {
      await tx.run(
        `INSERT INTO play_days (player_uuid, day, seconds) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')} ${upsert}`,
        chunk.flatMap((row) => [row.uuid, row.day, Math.min(row.seconds, DAY_CAP_SECONDS)]),
      );
    }
  }

  /** Adds recorded seconds to era totals (one row per player and era in `rows`). */
  addRecorded(tx: Transaction, rows: readonly EraSeconds[]): Promise<void> {
    return this.addToEras(tx, rows, 'recorded_seconds');
  }

  /** Adds (or, negative, takes away) imported seconds of era totals. */
  addImported(tx: Transaction, rows: readonly EraSeconds[]): Promise<void> {
    return this.addToEras(tx, rows, 'imported_seconds');
  }

  private async addToEras(tx: Transaction, rows: readonly EraSeconds[], column: 'recorded_seconds' | 'imported_seconds'): Promise<void> {
    const upsert = tx.isMysql
      ? `ON DUPLICATE KEY UPDATE ${column} = play_era_totals.${column} + VALUES(${column})`
      : `ON CONFLICT (player_uuid, era) DO UPDATE SET ${column} = play_era_totals.${column} + excluded.${column}`;
    for (const chunk of chunks(
      byKey(rows, (row) => `${row.uuid}|${row.era}`),
      CHUNK,
    )) {
      await tx.run(`INSERT INTO play_era_totals (player_uuid, era, ${column}) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')} ${upsert}`, chunk.flatMap((row) => [row.uuid, row.era, row.seconds]));
    }
  }

  /** The imported totals stored under these source ids (locked on MySQL), by id. */
  async getImportedForUpdate(tx: Transaction, origin: string, sourceIds: readonly string[]): Promise<Map<string, ImportedTotal>> {
    const found = new Map<string, ImportedTotal>();
    for (const chunk of chunks([...new Set(sourceIds)].sort(), CHUNK)) {
      const rows = await tx.all<ImportedTotal>(
        'SELECT source_id AS sourceId, player_uuid AS uuid, era, seconds FROM play_imported_totals ' +
          `WHERE origin = ? AND source_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY source_id${tx.forUpdate}`,
        [origin, ...chunk],
      );
      for (const row of rows) {
        found.set(row.sourceId, { ...row, seconds: Number(row.seconds) });
      }
    }
    return found;
  }

  async insertImported(tx: Transaction, origin: string, totals: readonly ImportedTotal[], now: Date): Promise<void> {
    const created = tx.time(now);
    for (const chunk of chunks(totals, CHUNK)) {
      await tx.run(
        `INSERT INTO play_imported_totals (origin, source_id, player_uuid, era, seconds, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((total) => [origin, total.sourceId, total.uuid, total.era, total.seconds, created]),
      );
    }
  }

  async replaceImported(tx: Transaction, origin: string, total: ImportedTotal): Promise<void> {
    await tx.run('UPDATE play_imported_totals SET player_uuid = ?, era = ?, seconds = ? WHERE origin = ? AND source_id = ?', [total.uuid, total.era, total.seconds, origin, total.sourceId]);
  }

  /** A player's days with play from `fromDay` to `toDay` (inclusive), oldest first. */
  async getDays(uuid: string, fromDay: string, toDay: string): Promise<Array<{ day: string; seconds: number }>> {
    const rows = await this.reader.all<{ day: string; seconds: number | string }>(DAYS_SQL, [uuid, fromDay, toDay]);
    return rows.map((row) => ({ day: row.day, seconds: Number(row.seconds) }));
  }

  /** A player's totals per era: imported plus recorded seconds. */
  async getEraTotals(uuid: string): Promise<Array<{ era: string; seconds: number }>> {
    const rows = await this.reader.all<{ era: string; imported: number | string; recorded: number | string }>(ERAS_SQL, [uuid]);
    return rows.map((row) => ({ era: row.era, seconds: Number(row.imported) + Number(row.recorded) }));
  }
}
