import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import { type DbTime, isoTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { HistoryAction } from './record-history.entity';
import type { RecordRef } from '../evidence/record-ref';

export interface NewHistoryEntry {
  actor: string;
  action: HistoryAction;
  detail: string | null;
  at: Date;
}

/** A history entry as the API shows it. */
export interface HistoryEntryView {
  at: string;
  actor: string;
  action: HistoryAction;
  detail: string | null;
}

interface HistoryRow {
  at: DbTime;
  actor: string;
  action: HistoryAction;
  detail: string | null;
}

// IDX_record_history_record: one range of the index, in the order the entries were written.
const OF_RECORD_SQL = 'SELECT at, actor, action, detail FROM record_history WHERE record_kind = ? AND record_id = ? ORDER BY id ASC';

/** Every query of `record_history` (what operators did to a record), and its one writer. */
@Injectable()
export class RecordHistoryRepository {
  constructor(private readonly reader: SqlReader) {}

  /** A record's history, oldest first. */
  async getOf(record: RecordRef): Promise<HistoryEntryView[]> {
    const rows = await this.reader.all<HistoryRow>(OF_RECORD_SQL, [record.kind, record.id]);
    return rows.map((row) => ({ at: isoTime(row.at)!, actor: row.actor, action: row.action, detail: row.detail }));
  }

  async insert(tx: Transaction, record: RecordRef, entry: NewHistoryEntry): Promise<void> {
    await tx.run('INSERT INTO record_history (record_kind, record_id, at, actor, action, detail) VALUES (?, ?, ?, ?, ?, ?)', [
      record.kind,
      record.id,
      tx.time(entry.at),
      entry.actor,
      entry.action,
      entry.detail,
    ]);
  }
}
