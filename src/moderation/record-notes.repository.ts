import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import type { RecordRef } from '../evidence/record-ref';

const NOTE_SQL = 'SELECT note FROM record_notes WHERE record_kind = ? AND record_id = ?';
const UPSERT_SQL = {
  mysql:
    'INSERT INTO record_notes (record_kind, record_id, note, updated_by, updated_at) VALUES (?, ?, ?, ?, ?) ' +
    'ON DUPLICATE KEY UPDATE note = VALUES(note), updated_by = VALUES(updated_by), updated_at = VALUES(updated_at)',
  sqlite:
    'INSERT INTO record_notes (record_kind, record_id, note, updated_by, updated_at) VALUES (?, ?, ?, ?, ?) ' +
    'ON CONFLICT (record_kind, record_id) DO UPDATE SET note = excluded.note, updated_by = excluded.updated_by, updated_at = excluded.updated_at',
};

/** Every query of `record_notes` (one operator note per record; no row when there is none), and its one writer. */
@Injectable()
export class RecordNotesRepository {
  constructor(private readonly reader: SqlReader) {}

  async getNote(record: RecordRef): Promise<string | null> {
    return (await this.reader.one<{ note: string }>(NOTE_SQL, [record.kind, record.id]))?.note ?? null;
  }

  /** Which of these records (of one kind) have a note: their ids. */
  async getIdsWithNotes(kind: RecordRef['kind'], ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) {
      return new Set();
    }
    // A page holds at most 100 records: one IN list, far below either placeholder limit.
    const rows = await this.reader.all<{ id: string }>(`SELECT record_id AS id FROM record_notes WHERE record_kind = ? AND record_id IN (${ids.map(() => '?').join(', ')})`, [kind, ...ids]);
    return new Set(rows.map((row) => row.id));
  }

  /** The note as the transaction sees it (locked on MySQL), to tell a change from a repeat. */
  async getNoteIn(tx: Transaction, record: RecordRef): Promise<string | null> {
    return (await tx.one<{ note: string }>(`${NOTE_SQL}${tx.forUpdate}`, [record.kind, record.id]))?.note ?? null;
  }

  async upsert(tx: Transaction, record: RecordRef, note: string, updatedBy: string, at: Date): Promise<void> {
    await tx.run(tx.isMysql ? UPSERT_SQL.mysql : UPSERT_SQL.sqlite, [record.kind, record.id, note, updatedBy, tx.time(at)]);
  }

  /** Clears the note; false when there was none. */
  async delete(tx: Transaction, record: RecordRef): Promise<boolean> {
    return (await tx.run('DELETE FROM record_notes WHERE record_kind = ? AND record_id = ?', [record.kind, record.id])).affectedRows > 0;
  }
}
