import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import { MiniGamesService, type IngestCounts } from './mini-games.service';

/** A row of the original's `periodmatch2`, as the importer reads it. */
export interface OriginalPeriodmatchRow {
  /** The row's `id`. */
  sourceId: string;
  uuid: string;
  /** `player`. */
  mcid: string;
  success: number;
  failure: number;
  matchTime: number;
  realMatchTime: number;
  calcMatchTime: number;
  startTime: Date;
  endTime: Date;
}

/** The import of `periodmatch2`, inside the importer's transaction; idempotent by the row's id. */
@Injectable()
export class MiniGamesImport {
  constructor(private readonly miniGames: MiniGamesService) {}

  importPeriodmatchIn(tx: Transaction, rows: readonly OriginalPeriodmatchRow[]): Promise<IngestCounts> {
    return this.miniGames.storeIn(
      tx,
      'original',
      rows.map((row) => ({ ...row, sourceId: `periodmatch2:${row.sourceId}`, mcid: row.mcid.slice(0, 64), status: true })),
    );
  }
}
