import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import { importedSourceId, kindOfTable, type PunishmentSourceTable } from './punishment-kinds';
import { PunishmentsService, type IngestCounts } from './punishments.service';

/** A row of the original's `jail`, `eban`, `chatban` or `chatjail` table, as the importer reads it. */
export interface OriginalPunishmentRow {
  table: PunishmentSourceTable;
  /** The row's `id` in its table. */
  sourceId: string;
  uuid: string;
  /** `player`: the game id when punished. */
  mcid: string;
  reason: string;
  /** `jail` only; null elsewhere. */
  testment: string | null;
  /** `status`: true while in force (the importer reads booleans and `punishing`/`end`). */
  active: boolean;
  /** `banned_by`. */
  issuedBy: string;
  /** `created_at`. */
  issuedAt: Date;
  /** Not in the source: null unless the importer knows it. */
  liftedAt: Date | null;
}

/**
 * The import of the original's punishments, inside the importer's transaction. Idempotent by
 * (table, id): a rerun stores nothing new. The two mute tables become one kind (ChatJail) and
 * every row gets the service's own id. No events: history is not news.
 */
@Injectable()
export class PunishmentsImport {
  constructor(private readonly punishments: PunishmentsService) {}

  importPunishmentsIn(tx: Transaction, rows: readonly OriginalPunishmentRow[]): Promise<IngestCounts> {
    return this.punishments.importIn(
      tx,
      'original',
      rows.map((row) => ({
        kind: kindOfTable(row.table),
        sourceId: importedSourceId(row.table, row.sourceId),
        uuid: row.uuid.toLowerCase(),
        // The columns' limits; the source's are unknown.
        mcid: row.mcid.slice(0, 64),
        reason: row.reason,
        testment: row.table === 'jail' ? row.testment : null,
        issuedBy: row.issuedBy.slice(0, 64),
        issuedAt: row.issuedAt,
        active: row.active,
        liftedAt: row.active ? null : row.liftedAt,
      })),
    );
  }
}
