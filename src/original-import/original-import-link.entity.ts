import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/**
 * What an import of the original service's database made of one of its rows, where the ids differ
 * (requests, club accounts): a second run finds its own work here and says `unchanged`, and tells
 * it apart from what was changed here since.
 */
@Entity('original_import_links')
export class OriginalImportLink {
  @PrimaryColumn({ name: 'source_table', type: 'varchar', length: 64 })
  sourceTable: string;

  @PrimaryColumn({ name: 'source_id', type: 'varchar', length: 64 })
  sourceId: string;

  @Column({ name: 'target_id', type: 'integer' })
  targetId: number;

  /** What the import wrote that this service may change later (a request's status, a digest of the placeholder password). */
  @Column({ name: 'imported_state', type: 'varchar', length: 128 })
  importedState: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
