import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import { dateOf, type DbTime } from '../database/transformers';
import type { PreparedPicture } from './evidence-picture';
import type { RecordRef } from './record-ref';

/** A stored picture without its bytes: what lists show. */
export interface EvidenceFile {
  name: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
  addedBy: string;
  addedAt: Date;
}

/** A picture's bytes and type, as `GET /evidence/{name}` sends them. */
export interface EvidenceContent {
  contentType: string;
  bytes: Buffer;
}

interface EvidenceFileRow {
  name: string;
  contentType: string;
  size: number | string;
  width: number | string;
  height: number | string;
  addedBy: string;
  addedAt: DbTime;
}

const FILE_COLUMNS = 'name, content_type AS contentType, size, width, height, added_by AS addedBy, added_at AS addedAt';
// IDX_evidence_files_record: one range of the index, oldest first.
const FOR_RECORD_SQL = `SELECT ${FILE_COLUMNS} FROM evidence_files WHERE record_kind = ? AND record_id = ? ORDER BY added_at ASC, name ASC`;
const NAMES_FOR_RECORD_SQL = 'SELECT name FROM evidence_files WHERE record_kind = ? AND record_id = ? ORDER BY added_at ASC, name ASC';
const CONTENT_SQL = 'SELECT content_type AS contentType, bytes FROM evidence_files WHERE name = ?';
const INSERT_SQL =
  'INSERT INTO evidence_files (name, record_kind, record_id, content_type, bytes, size, width, height, added_by, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const DELETE_SQL = 'DELETE FROM evidence_files WHERE record_kind = ? AND record_id = ? AND name = ?';

function toFile(row: EvidenceFileRow): EvidenceFile {
  return {
    name: row.name,
    contentType: row.contentType,
    size: Number(row.size),
    width: Number(row.width),
    height: Number(row.height),
    addedBy: row.addedBy,
    addedAt: dateOf(row.addedAt),
  };
}

/** Every query of `evidence_files`, and its one writer. */
@Injectable()
export class EvidenceRepository {
  constructor(private readonly reader: SqlReader) {}

  async listFor(record: RecordRef): Promise<EvidenceFile[]> {
    return (await this.reader.all<EvidenceFileRow>(FOR_RECORD_SQL, [record.kind, record.id])).map(toFile);
  }

  async namesFor(record: RecordRef): Promise<string[]> {
    return (await this.reader.all<{ name: string }>(NAMES_FOR_RECORD_SQL, [record.kind, record.id])).map((row) => row.name);
  }

  /** How many pictures each of these records (of one kind) has; a record without any is absent. One read of the record index for a page of records. */
  async countsFor(kind: RecordRef['kind'], ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) {
      return new Map();
    }
    // A page holds at most 100 records: one IN list, far below either driver's placeholder limit.
    const rows = await this.reader.all<{ id: string; count: number | string }>(
      `SELECT record_id AS id, COUNT(*) AS count FROM evidence_files WHERE record_kind = ? AND record_id IN (${ids.map(() => '?').join(', ')}) GROUP BY record_id`,
      [kind, ...ids],
    );
    return new Map(rows.map((row) => [row.id, Number(row.count)]));
  }

  /** A picture's bytes by its name (the primary key). */
  async getContent(name: string): Promise<EvidenceContent | undefined> {
    const row = await this.reader.one<{ contentType: string; bytes: Buffer | Uint8Array }>(CONTENT_SQL, [name]);
    return row && { contentType: row.contentType, bytes: Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes) };
  }

  /** Stores a prepared picture for a record; the row as lists show it. */
  async insert(tx: Transaction, record: RecordRef, picture: PreparedPicture, addedBy: string, addedAt: Date): Promise<EvidenceFile> {
    await tx.run(INSERT_SQL, [
      picture.name,
      record.kind,
      record.id,
      picture.contentType,
      picture.bytes,
      picture.bytes.length,
      picture.width,
      picture.height,
      addedBy,
      tx.time(addedAt),
    ]);
    return { name: picture.name, contentType: picture.contentType, size: picture.bytes.length, width: picture.width, height: picture.height, addedBy, addedAt };
  }

  /** Removes a record's picture; false when the record has no picture of that name. */
  async remove(tx: Transaction, record: RecordRef, name: string): Promise<boolean> {
    const { affectedRows } = await tx.run(DELETE_SQL, [record.kind, record.id, name]);
    return affectedRows > 0;
  }
}
