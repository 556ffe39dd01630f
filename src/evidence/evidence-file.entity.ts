import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/**
 * A picture an operator attached to a record (docs/bans-site.md, "Evidence pictures"). The bytes
 * live in the row, so every replica and every backup has them; `name` is generated once and never
 * reused, so a picture's URL can be cached for ever.
 */
@Entity('evidence_files')
export class EvidenceFileRow {
  /** 32 hex characters and the extension of the detected type (`.png`, `.jpg`, `.webp`, `.gif`). */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  name: string;

  @Column({ name: 'record_kind', type: 'varchar', length: 8 })
  recordKind: string;

  @Column({ name: 'record_id', type: 'varchar', length: 64 })
  recordId: string;

  @Column({ name: 'content_type', type: 'varchar', length: 16 })
  contentType: string;

  /** The stripped picture (BLOB on SQLite, MEDIUMBLOB on MariaDB). */
  @Column({ type: 'blob' })
  bytes: Buffer;

  @Column({ type: 'integer' })
  size: number;

  @Column({ type: 'integer' })
  width: number;

  @Column({ type: 'integer' })
  height: number;

  @Column({ name: 'added_by', type: 'varchar', length: 64 })
  addedBy: string;

  @Column({ name: 'added_at', type: 'datetime', precision: 3, transformer: utcDate })
  addedAt: Date;
}
