import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** An operator's note on a record (one per record; an empty note is no row). */
@Entity('record_notes')
export class RecordNote {
  @PrimaryColumn({ name: 'record_kind', type: 'varchar', length: 8 })
  recordKind: string;

  @PrimaryColumn({ name: 'record_id', type: 'varchar', length: 40 })
  recordId: string;

  @Column({ type: 'text' })
  note: string;

  @Column({ name: 'updated_by', type: 'varchar', length: 100 })
  updatedBy: string;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
